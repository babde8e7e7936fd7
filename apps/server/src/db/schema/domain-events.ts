import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The regulated record (issue 20, docs/decisions/regulated-record.md): one row per change of a regulated object,
 * written in the transaction of the change. Append-only and hash-chained: `hash` is the SHA-256 of the row's
 * canonical content, `prev_hash` included (events/chain.ts); triggers of migration 0015 refuse UPDATE, DELETE and
 * TRUNCATE. No foreign keys on purpose: the trail outlives the users, projects and workspaces it names.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    /** 1, 2, 3, … without gaps: a missing number is a deleted row. */
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** The database's clock (UTC, microseconds), read under the chain's lock. */
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 6 }).notNull(),
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
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('domain_events_device_idx').on(t.deviceId, t.seq),
    index('domain_events_project_idx').on(t.projectId, t.seq),
  ],
);
