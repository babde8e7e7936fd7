import { z } from 'zod';
import { text } from './text';

/** One notification of the signed-in user. */
export const notificationSchema = z.object({
  id: text(),
  kind: text(),
  title: text(),
  body: text(),
  /** A same-origin path the notification leads to, if any. */
  link: text().nullable(),
  createdAt: text(),
  seenAt: text().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /api/notifications?limit=&before=`: newest first. */
export const notificationListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Cursor: the `createdAt` of the last item of the previous page. */
  before: z.iso.datetime().optional(),
});

export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  hasUnseen: z.boolean(),
  nextBefore: text().nullable(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** `POST /api/notifications/seen`: the listed ids, or all when `all` is true. */
export const markSeenSchema = z.union([
  z.object({ ids: z.array(text()).min(1).max(500) }),
  z.object({ all: z.literal(true) }),
]);
export type MarkSeen = z.infer<typeof markSeenSchema>;

/**
 * Events of `GET /api/notifications/stream` (Server-Sent Events).
 * `event: notification` carries a Notification; `event: unseen` carries `{ hasUnseen }`.
 */
export const notificationStreamEvents = { notification: 'notification', unseen: 'unseen' } as const;
export const unseenEventSchema = z.object({ hasUnseen: z.boolean() });
