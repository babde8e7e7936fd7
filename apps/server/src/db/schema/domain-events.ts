import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The regulated record (issue 20, docs/decisions/regulated-record.md): one row per change of a regulated object,
 * written in the transaction of the change. Append-only and hash-chained: the chainer (events/audit-chainer.ts) gives
 * each committed row its place `seq` and `hash`, the SHA-256 of its canonical content with `prev_hash`
 * (events/chain.ts), once; triggers of migration 0015 refuse any other UPDATE, and DELETE and TRUNCATE. No foreign
 * keys on purpose: the trail outlives the users, projects and workspaces it names.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    /** The event's number, in the order of writing (gaps where a transaction rolled back). */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The place in the chain, 1, 2, 3, … without gaps (a missing one is a deleted row); null until chained. */
    seq: bigint('seq', { mode: 'number' }),
    /** The database's clock (UTC, microseconds) when the event was written. */
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 6 })
      .notNull()
      .default(sql`clock_timestamp()`),
    actorId: uuid('actor_id'),
    /** The actor's name at the time (what an inspector reads). */
    actorName: text('actor_name'),
    /** e.g. `project.status_changed` (events/kinds.ts). */
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    deviceId: uuid('device_id'),
    projectId: uuid('project_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The reason for change where the server asks for one (Part 11 §11.10(e)). */
    reason: text('reason'),
    requestId: text('request_id'),
    /** Null until chained, like `hash`. */
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [
    uniqueIndex('domain_events_seq_uq').on(t.seq),
    index('domain_events_device_idx').on(t.deviceId, t.id),
    index('domain_events_project_idx').on(t.projectId, t.id),
    // The rows waiting for the chainer (a handful): its read no longer walks every chained row first (migration 0045).
    index('domain_events_pending_idx')
      .on(t.id)
      .where(sql`${t.seq} is null`),
  ],
);
