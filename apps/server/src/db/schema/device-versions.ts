import type { DataRegion, DeviceVersionFile, DeviceVersionStatus } from '@insilico/contracts';
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
import { storedFiles } from './files';
import { projects } from './projects';
import { users } from './users';

/**
 * A resumable upload (tus protocol): the bytes arrive in PATCH requests at `offset` and are kept in storage
 * under `storageKey` until a consumer (a device version) takes them.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    purpose: text('purpose').notNull(),
    fileName: text('file_name').notNull(),
    length: bigint('length', { mode: 'number' }).notNull(),
    offset: bigint('offset', { mode: 'number' }).notNull().default(0),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    region: text('region').$type<DataRegion>().notNull(),
    storageKey: text('storage_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, precision: 3 }),
    /**
     * The write lease of the PATCH being written (migration 0019, issue 19 item 5): one writer per upload across
     * every server process; a lease a crashed process left runs out by `writer_until`.
     */
    writerToken: uuid('writer_token'),
    writerUntil: timestamp('writer_until', { withTimezone: true, precision: 3 }),
    /**
     * A direct upload into object storage (migration 0030, docs/decisions/object-storage.md): the multipart upload's
     * id, and the parts the browser reported by part number (a re-sent part replaces its entry).
     */
    multipartId: text('multipart_id'),
    parts: jsonb('parts').$type<Record<string, { bytes: number; etag: string }>>().notNull().default({}),
  },
  (t) => [
    index('uploads_device_idx').on(t.deviceId),
    index('uploads_expires_idx').on(t.expiresAt),
    check('uploads_region_ck', sql`${t.region} in ('eu', 'us')`),
    check('uploads_offset_ck', sql`${t.offset} >= 0 and ${t.offset} <= ${t.length}`),
  ],
);

/** A device version (spec §3): a unique name per workspace, a description and one or more STL files. */
export const deviceVersions = pgTable(
  'device_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: text('status').$type<DeviceVersionStatus>().notNull().default('uploading'),
    /** The processing job (job_runs.id). */
    jobId: uuid('job_id'),
    /** Why processing failed, for the version as a whole (per-file reasons live on the files). */
    error: text('error'),
    /** The project the version is added to once processed (spec §4 "New device version"). */
    targetProjectId: uuid('target_project_id').references(() => projects.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('device_versions_device_name_uq').on(t.deviceId, sql`lower(${t.name})`),
    index('device_versions_device_created_idx').on(t.deviceId, t.createdAt),
    check('device_versions_status_ck', sql`${t.status} in ('uploading', 'processing', 'ready', 'failed')`),
  ],
);

/** One STL file of a device version, with what processing found (metrics or the reason it was refused). */
export const deviceVersionFiles = pgTable(
  'device_version_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    versionId: uuid('version_id')
      .notNull()
      .references(() => deviceVersions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    fileName: text('file_name').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    uploadId: uuid('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    /** The model file once the upload completed. */
    fileId: uuid('file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    previewFileId: uuid('preview_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    status: text('status').$type<DeviceVersionFile['status']>().notNull().default('pending'),
    /** 'binary' or 'ascii', once parsed. */
    format: text('format'),
    /** Bounding box (mm), surface area, volume when closed, triangle count, watertight. */
    metrics: jsonb('metrics').$type<Record<string, unknown>>(),
    /** The reason a file was refused: { code, message }. */
    refusal: jsonb('refusal').$type<{ code: string; message: string }>(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_version_files_position_uq').on(t.versionId, t.position),
    check('device_version_files_status_ck', sql`${t.status} in ('pending', 'valid', 'refused')`),
  ],
);

/** The device versions of a project. */
export const projectDeviceVersions = pgTable(
  'project_device_versions',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id')
      .notNull()
      .references(() => deviceVersions.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.versionId] }),
    index('project_device_versions_version_idx').on(t.versionId),
  ],
);
