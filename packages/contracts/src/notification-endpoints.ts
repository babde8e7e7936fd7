import { activityStreamQuerySchema } from './audit';
import { endpoint } from './endpoint';
import {
  markSeenSchema,
  notificationListQuerySchema,
  notificationListSchema,
  unseenEventSchema,
} from './notifications';

/**
 * The signed-in user's notifications (docs/decisions/endpoints-in-contracts.md); in a file of its own because the
 * stream's query (the activity feed's workspace) comes from `audit.ts`.
 */
export const notificationEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/notifications',
    query: notificationListQuerySchema,
    response: { 200: notificationListSchema },
  }),
  markSeen: endpoint({
    method: 'POST',
    path: '/api/notifications/seen',
    body: markSeenSchema,
    response: { 200: unseenEventSchema },
  }),
  /** Server-Sent Events: notification, unseen; activity with `?device=`. */
  stream: endpoint({ method: 'GET', path: '/api/notifications/stream', query: activityStreamQuerySchema }),
};
