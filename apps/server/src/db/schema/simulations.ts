import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { deviceVersions } from './device-versions';
import { jobRuns } from './jobs';
import { projects } from './projects';
import { rooms } from './rooms';
import { users } from './users';

/**
 * A simulation of a room (issue 16): its kind, parameters and resolution as set up, the case-building and engine
 * versions that made its case, the job that runs it, and where its outputs are stored (the workspace's data region).
 * Progress and status mirror the job so the simulation list reads one table.
 */
export const simulations = pgTable(
  'simulations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The simulated device version (the first placed in the room); null when it was deleted later. */
    deviceVersionId: uuid('device_version_id').references(() => deviceVersions.id, { onDelete: 'set null' }),
    /** Its name when the run was set up (the list keeps showing it after a deletion). */
    deviceVersionName: text('device_version_name'),
    kind: text('kind', { enum: ['solid', 'fluid', 'particle'] }).notNull(),
    name: text('name').notNull(),
    /** The resolved parameters (defaults filled in). */
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull(),
    resolution: text('resolution', { enum: ['test', 'coarse', 'standard', 'fine'] }).notNull(),
    /** The heart-cycle phase of the anatomy. */
    phase: text('phase').notNull(),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    progress: real('progress').notNull().default(0),
    /** Simulated time reached, s, and the estimated seconds left (null before the first progress). */
    simulatedTime: real('simulated_time').notNull().default(0),
    endTime: real('end_time').notNull(),
    etaSeconds: real('eta_seconds'),
    error: text('error'),
    /** Particle count and run-time estimate shown at set-up. */
    estimate: jsonb('estimate').$type<Record<string, unknown>>().notNull(),
    /** `scenarios-n` and the engine's version that built the case. */
    scenarioVersion: text('scenario_version').notNull(),
    /** The data region and the key prefix of the outputs (`simulations/<id>/`). */
    region: text('region').notNull(),
    storagePrefix: text('storage_prefix').notNull(),
    /** The output files stored so far (relative keys), kept in order of writing. */
    storedFiles: jsonb('stored_files').$type<string[]>().notNull().default([]),
    jobId: uuid('job_id').references(() => jobRuns.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('simulations_room_name_uq').on(t.roomId, sql`lower(${t.name})`),
    index('simulations_project_created_idx').on(t.projectId, t.createdAt),
    index('simulations_status_idx').on(t.status),
  ],
);

/**
 * Names people gave particles of a result (issue 16 item 6: rename a particle on the line-graph card). A particle is
 * its object and its stable `particle_id` (frames keep ids across timesteps); one without a row is "Particle <id>".
 * Unique per simulation regardless of case (spec §5 'Particle name already exists').
 */
export const simulationParticleNames = pgTable(
  'simulation_particle_names',
  {
    simulationId: uuid('simulation_id')
      .notNull()
      .references(() => simulations.id, { onDelete: 'cascade' }),
    object: text('object').notNull(),
    particle: integer('particle').notNull(),
    name: text('name').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.simulationId, t.object, t.particle] }),
    uniqueIndex('simulation_particle_names_name_uq').on(t.simulationId, sql`lower(${t.name})`),
  ],
);
