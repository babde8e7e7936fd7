import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Outgoing mail. In the embedded default nothing is sent: operators read the outbox
 * (`npm run outbox`, or `select * from mail_outbox order by created_at desc`); with SMTP the
 * mail-delivery job sends it and sets `sent_at`.
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
    /**
     * When the sender may try this mail (again): null = at once. A sender that takes the mail moves
     * it into the future first (a lease), so a second sender skips it and a crashed one's mail
     * becomes due again; after a refusal it holds the back-off.
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('mail_outbox_unsent_idx').on(t.sentAt, t.createdAt)],
);
