import type { RouteObject } from 'react-router';

// /design-history (issue 20): the design history file and its signatures; its own chunk, loaded on first visit.
export const designHistoryRoutes: RouteObject[] = [
  {
    path: 'design-history',
    lazy: async () => ({ Component: (await import('./components/DesignHistoryRoute')).DesignHistoryRoute }),
    handle: { title: 'Design history' },
  },
];
