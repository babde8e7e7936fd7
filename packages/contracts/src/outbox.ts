import { z } from 'zod';

/** `GET /api/operator/outbox` (operators only): the newest mails, optionally to one address. */
export const outboxQuerySchema = z.object({
  to: z.string().trim().toLowerCase().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type OutboxQuery = z.input<typeof outboxQuerySchema>;

export const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const outboxSchema = z.object({ items: z.array(outboxMailSchema) });
export type Outbox = z.infer<typeof outboxSchema>;
