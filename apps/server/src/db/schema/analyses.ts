import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { cohorts } from './cohorts';
import { devices } from './devices';
import { imagingDatasets } from './imaging';
import { projects } from './projects';
import { users } from './users';

/**
 * A population analysis (issue 6): a cohort of a project, the chosen parameters and settings, and the patients
 * excluded from it. The numbers are recomputed from the cohort (they are deterministic), so only inputs are kept.
 * The cohort is a virtual one (`cohort_id`) or the delivered patients of an imaging dataset of the project
 * (`imaging_dataset_id`, issue 19, migration 0036): exactly one of them.
 */
export const analyses = pgTable(
  'analyses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    cohortId: uuid('cohort_id').references(() => cohorts.id, { onDelete: 'cascade' }),
    imagingDatasetId: uuid('imaging_dataset_id').references(() => imagingDatasets.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    /** The anatomical parameters analysed (keys of the patient parameter catalogue). */
    parameters: jsonb('parameters').$type<string[]>().notNull(),
    /** Percentiles, correlation threshold, alpha, target coverage, seed percentile, sizing windows. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    /** Patient ids (e.g. SYN-000123) excluded from the analysis. */
    excluded: jsonb('excluded').$type<string[]>().notNull().default([]),
    /** Bumped on every change; a stale write (If-Match) is refused. */
    revision: integer('revision').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('analyses_project_idx').on(t.projectId, t.createdAt),
    check('analyses_subject_ck', sql`(${t.cohortId} is null) <> (${t.imagingDatasetId} is null)`),
  ],
);
