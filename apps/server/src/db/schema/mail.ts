import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Outgoing mail. In the embedded default nothing is sent: operators read the outbox
 * (`select * from mail_outbox order by created_at desc`); with SMTP a sender sets `sent_at`.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
    /** SMTP delivery attempts so far and the last refusal, for retries with back-off. */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [index('mail_outbox_unsent_idx').on(t.sentAt, t.createdAt)],
);
