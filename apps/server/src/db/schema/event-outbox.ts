import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The transactional outbox of the domain events (issue 20): a row per event whose subscribers (notifications) have
 * not yet taken it, written by a trigger in the transaction that writes the event, removed once every subscriber
 * handled it (events/event-relay.ts). A lease keeps two relays from delivering one event at once; a relay killed
 * mid-delivery leaves the row, which another delivers once the lease runs out (at least once; the subscribers are
 * idempotent).
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
    enqueuedAt: timestamp('enqueued_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** Null until a relay takes it; a relay may take it again after this time. */
    leasedUntil: timestamp('leased_until', { withTimezone: true, precision: 3 }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [index('event_outbox_lease_idx').on(t.leasedUntil)],
);
