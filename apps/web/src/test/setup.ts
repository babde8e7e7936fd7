import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// jsdom does not implement scrolling; ScrollToTop calls it on every navigation.
window.scrollTo = () => undefined;
