import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The results of a population analysis as they were when the analysis entered the design history (issue 20 item 7):
 * written in the transaction of its `analysis.created` / `analysis.updated` event, which names the snapshot's id and
 * SHA-256, so a signature of the event binds these results. Append-only (migration 0022's trigger); no foreign keys,
 * like the trail: the record outlives the analysis, its cohort and its project.
 */
export const analysisResultSnapshots = pgTable(
  'analysis_result_snapshots',
  {
    id: uuid('id').primaryKey(),
    deviceId: uuid('device_id').notNull(),
    projectId: uuid('project_id').notNull(),
    analysisId: uuid('analysis_id').notNull(),
    /** The analysis' revision these results are of. */
    revision: integer('revision').notNull(),
    /** The server's version (`config.version`) that computed them. */
    codeVersion: text('code_version').notNull(),
    /** The analysis' inputs, the cohort and the results (or why there are none), as hashed. */
    content: jsonb('content').notNull(),
    /** SHA-256 (hex) of the content's canonical JSON (`events/chain.ts`). */
    contentHash: text('content_hash').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('analysis_result_snapshots_analysis_idx').on(t.analysisId, t.takenAt)],
);
