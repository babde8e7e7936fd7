import {
  notificationEndpoints as endpoints,
  notificationListSchema,
  pathOf,
  unseenEventSchema,
  type MarkSeen,
  type NotificationList,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';

export const notificationPageSize = 20;

/** The SWR key (and URL) of one page of notifications; `before` is the previous page's cursor. */
export function notificationPageUrl(before: string | null): string {
  return pathOf(endpoints.list, {}, { limit: notificationPageSize, before: before || undefined });
}

export function fetchNotificationPage(url: string): Promise<NotificationList> {
  return apiFetch(url, { schema: notificationListSchema });
}

/**
 * Marks notifications seen. Answers the server's new `hasUnseen` when it sends one,
 * `null` when it answers without a body.
 */
export function markNotificationsSeen(body: MarkSeen): Promise<boolean | null> {
  return apiCall(
    endpoints.markSeen,
    {},
    {
      body,
      schema: { parse: (data: unknown) => unseenEventSchema.safeParse(data).data?.hasUnseen ?? null },
    },
  );
}

export const notificationStreamUrl = pathOf(endpoints.stream, {});
