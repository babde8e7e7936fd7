import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { devices } from './devices';
import { projects } from './projects';
import { users } from './users';

/**
 * A statistical shape model of a project (issue 18): the configuration it is built from (cohorts, patients left
 * out, organs, phase), the build job, and once ready the summary (modes, quality curves, per-shape residuals, model
 * card). The model's arrays (mean, modes, triangles) are a file in the workspace's data region (`ssms/<id>.bin`).
 * `configuration_key` is the canonical configuration, unique per project (spec §5: a duplicate is refused) except
 * across versions: a model built with older code is rebuilt as the next `version` of the same configuration, the
 * old row kept as it is (`rebuilt_from` names it; at most one rebuild per version; migration 0044).
 */
export const ssms = pgTable(
  'ssms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SsmConfiguration of @insilico/contracts, normalised (sorted, no repeats). */
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull(),
    configurationKey: text('configuration_key').notNull(),
    shapeCount: integer('shape_count').notNull(),
    status: text('status', { enum: ['in_progress', 'ready', 'failed'] })
      .notNull()
      .default('in_progress'),
    /**
     * The build job (job_runs.id); null between the insert and the enqueue, and while the SSM waits for cohorts still
     * being ordered (chained in the project wizard, issue 18: the last cohort to be ready queues it).
     */
    jobId: uuid('job_id'),
    error: text('error'),
    /** Modes, quality curves, shapes and model card once ready (the Ssm answer's parts). */
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true, precision: 3 }),
    /** 1 for a model as created; each rebuild of a configuration (newer build code) is the next. */
    version: integer('version').notNull().default(1),
    /** The version this one rebuilds (null for a first version); it stays readable with its rooms and results. */
    rebuiltFrom: uuid('rebuilt_from').references((): AnyPgColumn => ssms.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('ssms_project_configuration_version_uq').on(t.projectId, t.configurationKey, t.version),
    uniqueIndex('ssms_rebuilt_from_uq').on(t.rebuiltFrom),
    index('ssms_project_created_idx').on(t.projectId, t.createdAt),
    check('ssms_status_ck', sql`${t.status} in ('in_progress', 'ready', 'failed')`),
  ],
);
