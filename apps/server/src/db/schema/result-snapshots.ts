import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Results that stay (issue 20 item 7): the results of a piece of evidence as they were when it entered the design
 * history — an analysis saved, a simulation or a trial finished, a measurement order ready or corrected, a shape
 * model built. Written in the transaction of the event that names the snapshot's id and SHA-256
 * (`after.results`), so a signature of the event binds these results. Append-only (migration 0027's trigger); no
 * foreign keys, like the trail: the record outlives the object, its project and its workspace.
 */
export const resultSnapshots = pgTable(
  'result_snapshots',
  {
    id: uuid('id').primaryKey(),
    deviceId: uuid('device_id').notNull(),
    /** Null for a workspace's evidence outside any project (a measurement order). */
    projectId: uuid('project_id'),
    /** The event's object type: `analysis`, `simulation`, `trial`, `measurement`, `ssm`. */
    objectType: text('object_type').notNull(),
    objectId: uuid('object_id').notNull(),
    /** An analysis' revision; for the others the object's n-th snapshot. */
    revision: integer('revision').notNull(),
    /** The server's version (`config.version`) that computed them. */
    codeVersion: text('code_version').notNull(),
    /** The object's settings and results (or why there are none), as hashed. */
    content: jsonb('content').notNull(),
    /** SHA-256 (hex) of the content's canonical JSON (`events/chain.ts`). */
    contentHash: text('content_hash').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('result_snapshots_object_idx').on(t.objectType, t.objectId, t.takenAt)],
);
