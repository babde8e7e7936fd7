import type {
  DataRegion,
  ImagingDatasetStatus,
  ImagingFinding,
  ImagingManifest,
  ImagingModels,
} from '@insilico/contracts';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices';
import { projects } from './projects';
import { users } from './users';

/**
 * An imaging dataset of a workspace (issue 19): the de-identified zip the browser uploaded (tus, then taken over
 * from the upload under the same storage key in the workspace's data region), the server's re-check (findings
 * naming file and tag when refused; counts when accepted), and the browser's de-identification manifest. It
 * becomes the imaging cohort of `project_id` once accepted.
 */
export const imagingDatasets = pgTable(
  'imaging_datasets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    note: text('note').notNull().default(''),
    status: text('status').$type<ImagingDatasetStatus>().notNull().default('checking'),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    region: text('region').$type<DataRegion>().notNull(),
    storageKey: text('storage_key').notNull().unique(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** The re-check job (job_runs.id); null only between the insert and the enqueue. */
    jobId: uuid('job_id'),
    manifest: jsonb('manifest').$type<ImagingManifest>(),
    findings: jsonb('findings').$type<ImagingFinding[]>().notNull().default([]),
    patients: integer('patients'),
    studies: integer('studies'),
    series: integer('series'),
    files: integer('files'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true, precision: 3 }),
    /** Patient models delivered by support staff (migration 0019): what was validated, and where the zip lies. */
    models: jsonb('models').$type<Omit<ImagingModels, 'deliveredAt' | 'deliveredBy'>>(),
    modelsStorageKey: text('models_storage_key'),
    modelsDeliveredBy: uuid('models_delivered_by').references(() => users.id, { onDelete: 'set null' }),
    readyAt: timestamp('ready_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('imaging_datasets_device_created_idx').on(t.deviceId, t.createdAt),
    index('imaging_datasets_project_idx').on(t.projectId),
    check('imaging_datasets_status_ck', sql`${t.status} in ('checking', 'refused', 'modelling', 'ready')`),
    check('imaging_datasets_region_ck', sql`${t.region} in ('eu', 'us')`),
  ],
);
