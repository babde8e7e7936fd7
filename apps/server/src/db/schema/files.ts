import type { DataRegion } from '@insilico/contracts';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices';
import { users } from './users';

/**
 * A file kept in storage (pictures, support screenshots; later device versions and results).
 * The bytes live in the storage driver under `storageKey`; this row is what the database knows.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The workspace the file belongs to; null for a person's own files (profile picture, support). */
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    purpose: text('purpose').notNull(),
    /**
     * The data region whose storage holds the bytes. Kept per file because a workspace's region may
     * still change (until it holds data) and personal files belong to no workspace.
     */
    region: text('region').$type<DataRegion>().notNull().default('eu'),
    storageKey: text('storage_key').notNull().unique(),
    /** A small version for lists and avatars (pictures only). */
    thumbnailKey: text('thumbnail_key'),
    contentType: text('content_type').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('stored_files_device_idx').on(t.deviceId),
    check('stored_files_region_ck', sql`${t.region} in ('eu', 'us')`),
    check(
      'stored_files_purpose_ck',
      sql`${t.purpose} in ('profile_picture', 'device_picture', 'support_screenshot', 'device_version_model', 'device_version_preview', 'room_screenshot')`,
    ),
  ],
);
