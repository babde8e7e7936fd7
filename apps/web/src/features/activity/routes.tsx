import type { RouteObject } from 'react-router';

// /activity-feed (issue 20): the audit trail's events for people; its own chunk, loaded on first visit.
export const activityRoutes: RouteObject[] = [
  {
    path: 'activity-feed',
    lazy: async () => ({ Component: (await import('./components/ActivityFeedPage')).ActivityFeedPage }),
    handle: { title: 'Activity feed' },
  },
];
