import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';

export const teamRoutes: RouteObject[] = [
  placeholderRoute('manage-team', {
    section: 'Settings',
    title: 'Manage team',
    upcoming: [
      'Invite colleagues to the device workspace.',
      'Accept members waiting for approval and set their roles (admin, member, guest).',
    ],
  }),
];
