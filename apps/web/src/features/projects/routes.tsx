import type { RouteObject } from 'react-router';
import { projectCommentsTab } from '../comments';
import { projectRoomsTab } from '../rooms';

export const projectRoutes: RouteObject[] = [
  {
    path: 'projects/overview',
    // The page's code and, on a cold start, the overview index.html already asked for (its first render draws the cards).
    lazy: async () => {
      const [page] = await Promise.all([
        import('./components/ProjectsOverviewPage'),
        import('./api').then((api) => api.primeEarlyOverview()),
      ]);
      return { Component: page.ProjectsOverviewPage };
    },
  },
  {
    path: 'projects/view',
    lazy: async () => ({ Component: (await import('./components/ProjectViewLayout')).ProjectViewLayout }),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('./components/ProjectViewIndex')).ProjectViewIndex }),
      },
      {
        path: 'stats',
        lazy: async () => ({ Component: (await import('./components/ProjectStatsTab')).ProjectStatsTab }),
      },
      { path: 'rooms', lazy: projectRoomsTab },
      { path: 'comments', lazy: projectCommentsTab },
    ],
  },
];
