import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
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
import { cohorts } from './cohorts';
import { devices } from './devices';
import { ssms } from './ssms';
import { users } from './users';

/**
 * A workspace's measurement definitions (issue 23), one row per version: changing a definition inserts the next
 * version of its lineage, so results measured with an older one keep theirs. `geometry` is a MeasurementGeometry
 * of @insilico/measure (checked on write). The built-in sets live in code, versioned there.
 */
export const measurementDefinitions = pgTable(
  'measurement_definitions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** The same for every version of one definition (the id of its first version). */
    lineageId: uuid('lineage_id').notNull(),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    phase: text('phase', { enum: ['end-diastole', 'end-systole'] }).notNull(),
    unit: text('unit', { enum: ['mm', 'mm²', 'mL', '°'] }).notNull(),
    geometry: jsonb('geometry').$type<Record<string, unknown>>().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('measurement_definitions_lineage_version_uq').on(t.lineageId, t.version),
    index('measurement_definitions_device_idx').on(t.deviceId),
  ],
);

/** One measurement of an order as measured: the definition version, frozen into the order. */
export interface OrderedMeasurementRecord {
  definitionId: string;
  version: number;
  name: string;
  unit: 'mm' | 'mm²' | 'mL' | '°';
  phase: 'end-diastole' | 'end-systole';
  geometry: Record<string, unknown>;
}

/** A shape of an SSM an order measures: its label (`mean`, or SDs per mode) and its name (the named instance's). */
export interface OrderedShapeRecord {
  label: string;
  name: string;
}

/**
 * An order of measurements on a cohort (every stored patient) or on an SSM's shapes (its mean and named instances,
 * frozen into `shapes`; a result's patient index is the shape's position there): a durable job measures them.
 */
export const measurementOrders = pgTable(
  'measurement_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    cohortId: uuid('cohort_id').references(() => cohorts.id, { onDelete: 'cascade' }),
    ssmId: uuid('ssm_id').references(() => ssms.id, { onDelete: 'cascade' }),
    /** An SSM's shapes as ordered (null for a cohort's order). */
    shapes: jsonb('shapes').$type<OrderedShapeRecord[]>(),
    status: text('status', { enum: ['in_progress', 'ready', 'failed'] })
      .notNull()
      .default('in_progress'),
    /** The definitions as measured (a snapshot: later versions never change this order's results). */
    measurements: jsonb('measurements').$type<OrderedMeasurementRecord[]>().notNull(),
    jobId: uuid('job_id'),
    error: text('error'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('measurement_orders_device_created_idx').on(t.deviceId, t.createdAt),
    check('measurement_orders_status_ck', sql`${t.status} in ('in_progress', 'ready', 'failed')`),
    check('measurement_orders_subject_ck', sql`(${t.cohortId} is null) <> (${t.ssmId} is null)`),
  ],
);

/**
 * One patient × measurement of an order: the automatic value or why it failed, and the value after a hand
 * correction of the patient's landmarks (the automatic value is never overwritten).
 */
export const measurementResults = pgTable(
  'measurement_results',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => measurementOrders.id, { onDelete: 'cascade' }),
    patientIndex: integer('patient_index').notNull(),
    /** Position of the measurement in `measurement_orders.measurements`. */
    measurement: integer('measurement').notNull(),
    automaticValue: doublePrecision('automatic_value'),
    failure: text('failure'),
    correctedValue: doublePrecision('corrected_value'),
    correctedFailure: text('corrected_failure'),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.patientIndex, t.measurement] })],
);

/** Landmarks a user placed by hand for one patient of an order at one phase: what, who and when. */
export const measurementCorrections = pgTable(
  'measurement_corrections',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => measurementOrders.id, { onDelete: 'cascade' }),
    patientIndex: integer('patient_index').notNull(),
    phase: text('phase', { enum: ['end-diastole', 'end-systole'] }).notNull(),
    /** LandmarkCorrections of @insilico/measure: name → { position, normal? } (patient frame, mm). */
    landmarks: jsonb('landmarks').$type<Record<string, { position: number[]; normal?: number[] }>>().notNull(),
    correctedBy: uuid('corrected_by').references(() => users.id, { onDelete: 'set null' }),
    correctedAt: timestamp('corrected_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.patientIndex, t.phase] })],
);
