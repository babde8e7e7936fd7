import { Navigate, type RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';
import { ProjectCommentsTab } from '../comments';
import { ProjectRoomsTab } from '../rooms';
import { ProjectViewLayout } from './components/ProjectViewLayout';

export const projectRoutes: RouteObject[] = [
  placeholderRoute('projects/overview', {
    section: 'Projects',
    title: 'Projects overview',
    description: 'Your development projects per device, grouped by stage.',
    upcoming: [
      'See projects grouped by development stage: Concept, Animal and Clinical.',
      'Filter by project status: active, completed or abandoned.',
      'Complete, abandon or reactivate a project from its card.',
    ],
  }),
  {
    path: 'projects/view',
    element: <ProjectViewLayout />,
    children: [
      { index: true, element: <Navigate to="stats" replace /> },
      placeholderRoute('stats', {
        section: 'Project',
        title: 'Project stats',
        upcoming: ['See the project’s cohorts, device versions, question of interest and team at a glance.'],
      }),
      { path: 'rooms', element: <ProjectRoomsTab /> },
      { path: 'comments', element: <ProjectCommentsTab /> },
    ],
  },
];
