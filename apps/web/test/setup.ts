import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// jsdom does not implement scrolling; ScrollToTop calls it on every navigation. Tests of worker code run in the
// node environment (`// @vitest-environment node`), which has no window.
if (typeof window !== 'undefined') window.scrollTo = () => undefined;

// findBy* waits for lazy route chunks; their import takes over the default 1 s on a busy 2-core machine.
configure({ asyncUtilTimeout: 5000 });
