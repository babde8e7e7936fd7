import { sql } from 'drizzle-orm';
import {
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
import { cohorts } from './cohorts';
import { deviceVersions } from './device-versions';
import { imagingDatasets } from './imaging';
import { storedFiles } from './files';
import { projects } from './projects';
import { ssms } from './ssms';
import { users } from './users';

/**
 * A 3D room of a project (Rooms tab): a patient of one of the project's cohorts (or, later, an SSM) with device
 * versions placed in it. `scene` keeps the view settings (organ visibility, phase, camera).
 */
export const rooms = pgTable(
  'rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The patient: a cohort and the patient's index in the cohort's population (null for an SSM room). */
    cohortId: uuid('cohort_id').references(() => cohorts.id, { onDelete: 'cascade' }),
    patientIndex: integer('patient_index'),
    /** The statistical shape model of an SSM room (issue 18). */
    ssmId: uuid('ssm_id').references(() => ssms.id, { onDelete: 'cascade' }),
    /**
     * A patient of one of the project's imaging cohorts (issue 19, migration 0023): the dataset and the patient's
     * folder name in the delivered models (the de-identification pseudonym or the name support staff gave it).
     */
    imagingDatasetId: uuid('imaging_dataset_id').references(() => imagingDatasets.id, { onDelete: 'cascade' }),
    imagingPatient: text('imaging_patient'),
    scene: jsonb('scene').$type<Record<string, unknown>>().notNull().default({}),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rooms_project_name_uq').on(t.projectId, sql`lower(${t.name})`),
    index('rooms_project_created_idx').on(t.projectId, t.createdAt),
    index('rooms_imaging_dataset_idx').on(t.imagingDatasetId),
    check(
      'rooms_subject_ck',
      sql`(${t.cohortId} is not null and ${t.patientIndex} is not null) or ${t.ssmId} is not null or (${t.imagingDatasetId} is not null and ${t.imagingPatient} is not null)`,
    ),
  ],
);

/** A device version placed in a room: position (mm), rotation (unit quaternion) and scale, and a snapped landmark. */
export const roomPlacements = pgTable(
  'room_placements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id')
      .notNull()
      .references(() => deviceVersions.id, { onDelete: 'cascade' }),
    /** { position: [x, y, z], quaternion: [x, y, z, w], scale: [x, y, z] }. */
    transform: jsonb('transform').$type<Record<string, unknown>>().notNull(),
    /** The landmark the placement was snapped to (e.g. the mitral annulus centre and plane), if any. */
    landmark: text('landmark'),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('room_placements_room_idx').on(t.roomId)],
);

/** Team members a room was shared with (they are notified). */
export const roomShares = pgTable(
  'room_shares',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sharedBy: uuid('shared_by').references(() => users.id, { onDelete: 'set null' }),
    sharedAt: timestamp('shared_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] })],
);

/** A screenshot of a room's scene, kept in the room's gallery. */
export const roomScreenshots = pgTable(
  'room_screenshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    caption: text('caption').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('room_screenshots_room_idx').on(t.roomId, t.createdAt)],
);
