import { z } from 'zod';
import { text } from './text';

/** `GET /api/operator/outbox` (operators only): the newest mails, optionally to one address. */
export const outboxQuerySchema = z.object({
  to: text().trim().toLowerCase().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type OutboxQuery = z.input<typeof outboxQuerySchema>;

export const outboxMailSchema = z.object({
  id: text(),
  to: text(),
  subject: text(),
  text: text(),
  createdAt: text(),
  sentAt: text().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const outboxSchema = z.object({ items: z.array(outboxMailSchema) });
export type Outbox = z.infer<typeof outboxSchema>;
