import type { RouteObject } from 'react-router';

/** The support inbox of support staff (docs/decisions/support-requests.md); the server refuses everybody else. */
export const supportRoutes: RouteObject[] = [
  {
    path: 'support-inbox',
    lazy: async () => ({ Component: (await import('./components/SupportInboxPage')).SupportInboxPage }),
    handle: { title: 'Support inbox' },
  },
  {
    path: 'support-inbox/:requestId',
    lazy: async () => ({ Component: (await import('./components/InboxRequestPage')).InboxRequestPage }),
    handle: { title: 'Support request' },
  },
];
