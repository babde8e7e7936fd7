import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';
import { HomePage } from './components/HomePage';
import { RequireWorkspace } from './components/RequireWorkspace';

export const workspaceRoutes: RouteObject[] = [
  {
    index: true,
    element: (
      <RequireWorkspace>
        <HomePage />
      </RequireWorkspace>
    ),
    handle: { title: 'Home' },
  },
  // The selected workspace's home, like the index (issue 3); a user without one goes to the onboarding.
  {
    path: 'devices/setup',
    element: (
      <RequireWorkspace>
        <HomePage />
      </RequireWorkspace>
    ),
    handle: { title: 'Home' },
  },
  placeholderRoute('activity-feed', {
    section: 'Workspace',
    title: 'Activity feed',
    description: 'What happened across your device workspace.',
    upcoming: [
      'Follow what your team did across projects, cohorts and simulations.',
      'Open the item an activity refers to.',
    ],
  }),
  placeholderRoute('design-history', {
    section: 'Workspace',
    title: 'Design history',
    description: 'The record of your device design decisions.',
    upcoming: ['Add design history entries.', 'See which project each entry belongs to.'],
  }),
];
