import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  type AnyPgColumn,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { cohorts } from './cohorts';
import { deviceVersions } from './device-versions';
import { imagingDatasets } from './imaging';
import { projects } from './projects';
import { rooms } from './rooms';
import { simulations } from './simulations';
import { ssms } from './ssms';
import { users } from './users';

/**
 * An in-silico trial (issue 17): one simulation set-up applied to every patient of one of the project's cohorts. The
 * set-up is kept as sent (parameters, resolution, the placement rule); each patient's run is an ordinary simulation
 * of a room the trial made for it (trial_patients).
 */
export const trials = pgTable(
  'trials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /**
     * The cohort whose patients the trial runs on; null for a trial on an SSM's named instances (ssm_id) or on an
     * imaging cohort's delivered patients (imaging_dataset_id): exactly one of the three is set.
     */
    cohortId: uuid('cohort_id').references(() => cohorts.id, { onDelete: 'cascade' }),
    /** The SSM whose named instances (rooms on its saved shapes) are the trial's patients (migration 0031). */
    ssmId: uuid('ssm_id').references(() => ssms.id, { onDelete: 'cascade' }),
    /** The imaging cohort whose delivered patients the trial runs on (migration 0043; issue 19 item 7). */
    imagingDatasetId: uuid('imaging_dataset_id').references(() => imagingDatasets.id, { onDelete: 'cascade' }),
    /** The device version every patient gets; null when it was deleted later (its name stays). */
    deviceVersionId: uuid('device_version_id').references(() => deviceVersions.id, { onDelete: 'set null' }),
    deviceVersionName: text('device_version_name').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['solid', 'fluid', 'particle'] }).notNull(),
    resolution: text('resolution', { enum: ['test', 'coarse', 'standard', 'fine'] }).notNull(),
    /** The parameters as sent (each patient's defaults fill the rest: stroke volume is the patient's). */
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull(),
    /** The placement rule now (a retry may correct it; each patient keeps the rule it was placed by). */
    placement: jsonb('placement').$type<Record<string, unknown>>().notNull(),
    /** The trial this one re-runs on another device version (device CI: the page compares the two). */
    basedOnTrialId: uuid('based_on_trial_id').references((): AnyPgColumn => trials.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, precision: 3 }),
    /** Acceptance criteria per outcome key (`{ min, max }`, either may be null): pass/fail, pass fraction, report. */
    acceptance: jsonb('acceptance')
      .$type<Record<string, { min: number | null; max: number | null }>>()
      .notNull()
      .default({}),
    /** Device CI: re-run this trial on each new ready device version of the project (the flag moves to the re-run). */
    autoRerun: boolean('auto_rerun').notNull().default(false),
    /**
     * The user's outcomes now (contracts' `storedCustomOutcomeSchema`: key `user_1`, `user_2`, … never reused, the
     * definition's version, the definition), read like the kind's.
     */
    customOutcomes: jsonb('custom_outcomes').$type<Record<string, unknown>[]>().notNull().default([]),
    /** Every version of every user outcome, removed ones included (`customOutcomeVersionSchema`, migration 0029). */
    customOutcomeHistory: jsonb('custom_outcome_history').$type<Record<string, unknown>[]>().notNull().default([]),
    /** The job reading finished patients' user outcomes again after the last change of definitions (job_runs.id). */
    outcomeJobId: uuid('outcome_job_id'),
  },
  (t) => [
    uniqueIndex('trials_project_name_uq').on(t.projectId, sql`lower(${t.name})`),
    index('trials_project_created_idx').on(t.projectId, t.createdAt),
    check('trials_subject_ck', sql`num_nonnulls(${t.cohortId}, ${t.ssmId}, ${t.imagingDatasetId}) = 1`),
  ],
);

/**
 * One patient of a trial: the room made for it (device placed by the rule), its simulation, why it failed before a
 * run existed (placement or case building), and the outcomes read from the finished run.
 */
export const trialPatients = pgTable(
  'trial_patients',
  {
    trialId: uuid('trial_id')
      .notNull()
      .references(() => trials.id, { onDelete: 'cascade' }),
    patientId: text('patient_id').notNull(),
    /** The cohort's order, for tables and the population analysis. */
    patientIndex: integer('patient_index').notNull(),
    /** An SSM instance's name and saved shape (`mean`, `2,0,-1.5`) when the patient is one (patient_id: its room). */
    instanceName: text('instance_name'),
    instanceShape: text('instance_shape'),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'set null' }),
    simulationId: uuid('simulation_id').references(() => simulations.id, { onDelete: 'set null' }),
    /** The rule and the transform the patient was placed by. */
    placement: jsonb('placement').$type<Record<string, unknown>>(),
    stage: text('stage', { enum: ['placement', 'setup', 'outcomes'] }),
    error: text('error'),
    outcomes: jsonb('outcomes').$type<Record<string, number | null>>(),
    outcomeNotes: jsonb('outcome_notes').$type<Record<string, string>>().notNull().default({}),
    /** The definition version each user outcome's value came from (absent: version 1, read before 0029). */
    outcomeVersions: jsonb('outcome_versions').$type<Record<string, number>>().notNull().default({}),
    /** Values of earlier definitions, kept as they were read: `<key>@<version>` → value. */
    earlierOutcomes: jsonb('earlier_outcomes').$type<Record<string, number | null>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.trialId, t.patientId] }), index('trial_patients_simulation_idx').on(t.simulationId)],
);

/**
 * A trial's report (PDF), made by the `trial.report` job from the trial as it stood then and stored unchanged (it reads
 * the same tomorrow, whatever happens to the trial afterwards); its SHA-256 is kept to show that.
 */
export const trialReports = pgTable(
  'trial_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trialId: uuid('trial_id')
      .notNull()
      .references(() => trials.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['queued', 'ready', 'failed'] })
      .notNull()
      .default('queued'),
    error: text('error'),
    region: text('region').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    bytes: integer('bytes'),
    sha256: text('sha256'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('trial_reports_trial_idx').on(t.trialId, t.createdAt),
    check('trial_reports_status_ck', sql`${t.status} in ('queued', 'ready', 'failed')`),
  ],
);
