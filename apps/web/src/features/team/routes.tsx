import type { RouteObject } from 'react-router';

export const teamRoutes: RouteObject[] = [
  {
    path: 'manage-team',
    lazy: async () => ({ Component: (await import('./components/ManageTeamPage')).ManageTeamPage }),
    handle: { title: 'Manage team' },
  },
  // The page of the mailed invitation link (see acceptInvitationPath on the server).
  {
    path: 'accept-invitation',
    lazy: async () => ({ Component: (await import('./components/AcceptInvitationPage')).AcceptInvitationPage }),
    handle: { title: 'Invitation' },
  },
];
