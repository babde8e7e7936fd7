import { notificationListSchema, unseenEventSchema, type MarkSeen, type NotificationList } from '@insilico/contracts';
import { apiFetch } from '../../lib/api';

export const notificationPageSize = 20;

/** The SWR key (and URL) of one page of notifications; `before` is the previous page's cursor. */
export function notificationPageUrl(before: string | null): string {
  const query = new URLSearchParams({ limit: String(notificationPageSize) });
  if (before) query.set('before', before);
  return `/api/notifications?${query.toString()}`;
}

export function fetchNotificationPage(url: string): Promise<NotificationList> {
  return apiFetch(url, { schema: notificationListSchema });
}

/**
 * Marks notifications seen. Answers the server's new `hasUnseen` when it sends one,
 * `null` when it answers without a body.
 */
export function markNotificationsSeen(body: MarkSeen): Promise<boolean | null> {
  return apiFetch('/api/notifications/seen', {
    method: 'POST',
    body,
    schema: { parse: (data: unknown) => unseenEventSchema.safeParse(data).data?.hasUnseen ?? null },
  });
}

export const notificationStreamUrl = '/api/notifications/stream';
