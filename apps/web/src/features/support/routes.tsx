import type { RouteObject } from 'react-router';
import { InboxRequestPage } from './components/InboxRequestPage';
import { SupportInboxPage } from './components/SupportInboxPage';

/** The support inbox of support staff (docs/decisions/support-requests.md); the server refuses everybody else. */
export const supportRoutes: RouteObject[] = [
  { path: 'support-inbox', element: <SupportInboxPage />, handle: { title: 'Support inbox' } },
  { path: 'support-inbox/:requestId', element: <InboxRequestPage />, handle: { title: 'Support request' } },
];
