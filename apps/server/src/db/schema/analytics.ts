import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Product analytics events received by `POST /api/analytics/ingest` (issue 21). The user is the signed-in account
 * (its e-mail is the wire's user id, not stored twice); properties are allow-listed ids only. Kept for
 * ANALYTICS_RETENTION_DAYS; deleted with the account.
 */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The client's insert id: a resend or a beacon of an event already stored is ignored. */
    insertId: uuid('insert_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    sessionId: bigint('session_id', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 3 }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('analytics_events_insert_id_uq').on(t.insertId),
    index('analytics_events_time_idx').on(t.occurredAt),
    index('analytics_events_received_idx').on(t.receivedAt),
  ],
);

/**
 * The ingestion's rate limit per user, in the database so that every server on one database shares it (issue 21): a
 * fixed window from the first upload, counted with one atomic upsert per upload. One row per user who uploaded.
 */
export const analyticsUploadWindows = pgTable('analytics_upload_windows', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  windowStart: timestamp('window_start', { withTimezone: true, precision: 3 }).notNull(),
  uploads: integer('uploads').notNull(),
});
