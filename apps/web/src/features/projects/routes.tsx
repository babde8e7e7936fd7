import type { RouteObject } from 'react-router';
import { ProjectCommentsTab } from '../comments';
import { ProjectRoomsTab } from '../rooms';
import { ProjectStatsTab } from './components/ProjectStatsTab';
import { ProjectsOverviewPage } from './components/ProjectsOverviewPage';
import { ProjectViewIndex } from './components/ProjectViewIndex';
import { ProjectViewLayout } from './components/ProjectViewLayout';

export const projectRoutes: RouteObject[] = [
  { path: 'projects/overview', element: <ProjectsOverviewPage /> },
  {
    path: 'projects/view',
    element: <ProjectViewLayout />,
    children: [
      { index: true, element: <ProjectViewIndex /> },
      { path: 'stats', element: <ProjectStatsTab /> },
      { path: 'rooms', element: <ProjectRoomsTab /> },
      { path: 'comments', element: <ProjectCommentsTab /> },
    ],
  },
];
