import type { RouteObject } from 'react-router';
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
];
