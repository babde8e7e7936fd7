import { index, integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Our view of a durable job (the queue itself is pg-boss, same id). Holds what people and the
 * API read — status, progress — and the heartbeat that tells a live worker from a dead one.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    progress: real('progress').notNull().default(0),
    progressMessage: text('progress_message'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    result: jsonb('result'),
    data: jsonb('data'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    workerId: text('worker_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('job_runs_status_heartbeat_idx').on(t.status, t.heartbeatAt), index('job_runs_user_idx').on(t.userId)],
);
