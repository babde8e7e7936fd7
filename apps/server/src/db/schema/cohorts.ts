import type { CohortStatus } from '@insilico/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { devices } from './devices';
import { users } from './users';

/**
 * A patient cohort ordered in a workspace (spec §3 "Patient cohort"). Its patients are drawn from the synthetic
 * population named by `populationSeed`, `populationSize` and `modelVersion`; each patient's full parameter record
 * is stored with it at order time (`cohort_patients.record`), so the cohort reads the same whatever the generator
 * becomes. See docs/decisions/cohort-storage.md.
 */
export const cohorts = pgTable(
  'cohorts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** Unique per workspace, case-insensitively; cannot change after the order. */
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The criteria as ordered (CohortCriteria of @insilico/anatomy, normalised). */
    criteria: jsonb('criteria').$type<Record<string, unknown>>().notNull(),
    size: integer('size').notNull(),
    status: text('status').$type<CohortStatus>().notNull().default('in_progress'),
    populationSeed: bigint('population_seed', { mode: 'number' }).notNull(),
    populationSize: integer('population_size').notNull(),
    /** The population model that made the stored patient records. */
    modelVersion: text('model_version').notNull(),
    /** The mesh model that built the meshes of the order (cached meshes are read under it for ever). */
    meshModelVersion: text('mesh_model_version').notNull(),
    /** Seed of the stratified sample (unsigned 32-bit). */
    sampleSeed: bigint('sample_seed', { mode: 'number' }).notNull(),
    /** How many patients matched the criteria when the order was placed. */
    matchingAtOrder: integer('matching_at_order').notNull(),
    /** The order job (job_runs.id); null only between the insert and the enqueue. */
    jobId: uuid('job_id'),
    error: text('error'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('cohorts_device_name_uq').on(t.deviceId, sql`lower(${t.name})`),
    index('cohorts_device_created_idx').on(t.deviceId, t.createdAt),
    check('cohorts_status_ck', sql`${t.status} in ('in_progress', 'ready', 'failed')`),
    check('cohorts_size_ck', sql`${t.size} in (5, 10, 20, 50, 100)`),
  ],
);

/** A patient of a cohort: its index in the cohort's synthetic population and its parameters as ordered. */
export const cohortPatients = pgTable(
  'cohort_patients',
  {
    cohortId: uuid('cohort_id')
      .notNull()
      .references(() => cohorts.id, { onDelete: 'cascade' }),
    patientIndex: integer('patient_index').notNull(),
    /** `SYN-000123` for synthetic patients. */
    patientId: text('patient_id').notNull(),
    /** 1-based order in the cohort (by patient id). */
    position: integer('position').notNull(),
    /**
     * The patient's full record (a SyntheticPatient of `cohorts.model_version`, JSON) as drawn at order time: every
     * read and every mesh comes from it. Null only for a cohort ordered before migration 0007 whose population
     * model this server can no longer produce (such a cohort cannot be read).
     */
    record: jsonb('record').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.cohortId, t.patientIndex] })],
);

/** A pathology a user asked for that the database does not offer yet (status `new`); support reads them. */
export const pathologyRequests = pgTable(
  'pathology_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pathology_requests_uq').on(t.deviceId, t.userId, sql`lower(${t.name})`),
    index('pathology_requests_created_idx').on(t.createdAt),
  ],
);
