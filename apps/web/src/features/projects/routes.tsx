import type { RouteObject } from 'react-router';
import { projectCommentsTab } from '../comments';
import { projectRoomsTab } from '../rooms';

export const projectRoutes: RouteObject[] = [
  {
    path: 'projects/overview',
    lazy: async () => ({ Component: (await import('./components/ProjectsOverviewPage')).ProjectsOverviewPage }),
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
