import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// jsdom does not implement scrolling; ScrollToTop calls it on every navigation. Tests of worker code run in the
// node environment (`// @vitest-environment node`), which has no window.
if (typeof window !== 'undefined') window.scrollTo = () => undefined;
