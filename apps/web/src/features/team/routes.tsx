import type { RouteObject } from 'react-router';
import { AcceptInvitationPage } from './components/AcceptInvitationPage';
import { ManageTeamPage } from './components/ManageTeamPage';

export const teamRoutes: RouteObject[] = [
  { path: 'manage-team', element: <ManageTeamPage />, handle: { title: 'Manage team' } },
  // The page of the mailed invitation link (see acceptInvitationPath on the server).
  { path: 'accept-invitation', element: <AcceptInvitationPage />, handle: { title: 'Invitation' } },
];
