import type { RouteObject } from 'react-router';

/** `/analytics`: the product analytics for operators (issue 21); the server refuses everybody else. */
export const analyticsRoutes: RouteObject[] = [
  {
    path: 'analytics',
    lazy: async () => ({ Component: (await import('./operator/AnalyticsPage')).AnalyticsPage }),
    handle: { title: 'Product analytics' },
  },
];
