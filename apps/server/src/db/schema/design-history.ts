import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The design history file's manual entries (issue 20 item 4, ISO 13485 §7.3.10): design inputs, outputs, verification
 * and validation notes, reviews, written by people next to the events the trail records. An entry with a signature
 * cannot change (a trigger of migration 0018 refuses it): it is superseded by a new entry naming it. No foreign keys,
 * like the trail: the record outlives the projects and people it names.
 */
export const designHistoryEntries = pgTable(
  'design_history_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id').notNull(),
    projectId: uuid('project_id').notNull(),
    /** design_input, design_output, verification, validation, review, note (contracts/design-history.ts). */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Ids of domain events this entry cites as evidence (trace links). */
    evidenceEventIds: bigint('evidence_event_ids', { mode: 'number' })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
    /** The entry this one replaces (a signed entry is never edited). */
    supersedesId: uuid('supersedes_id'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('design_history_entries_project_idx').on(t.projectId, t.createdAt)],
);

/**
 * Electronic signatures (21 CFR Part 11 §11.50, §11.70, §11.200): who signed which record with which meaning, when
 * (the database's UTC clock), and the SHA-256 of the canonical manifest of what was signed, kept with the manifest.
 * Append-only (migration 0018's trigger): a signature is never changed, moved or removed.
 */
export const electronicSignatures = pgTable(
  'electronic_signatures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id').notNull(),
    projectId: uuid('project_id').notNull(),
    /** `entry` (a design history entry) or `event` (an event of the trail: an evidence snapshot). */
    recordType: text('record_type').notNull(),
    recordId: text('record_id').notNull(),
    /** review, approval, responsibility, authorship. */
    meaning: text('meaning').notNull(),
    signerId: uuid('signer_id').notNull(),
    /** The signer's printed name at signing (§11.50(a)(1)). */
    signerName: text('signer_name').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
    manifest: jsonb('manifest').notNull(),
    /** SHA-256 (hex) of the manifest's canonical JSON: binds the signature to the signed content (§11.70). */
    contentHash: text('content_hash').notNull(),
    /** SHA-256 of the session's token with a prefix: the first signing of a session asks for both components. */
    sessionKey: text('session_key').notNull(),
  },
  (t) => [
    index('electronic_signatures_record_idx').on(t.recordType, t.recordId),
    index('electronic_signatures_signer_session_idx').on(t.signerId, t.sessionKey),
  ],
);

/**
 * A design history file made by a job (a large history, docs/decisions/design-history-export-job.md): who asked for
 * which scope and format, the stored file in the workspace's region with its SHA-256 (the same hash the trail's
 * `design_history.exported` event records), and when the file is removed (`expires_at`). Only the requester may
 * download it, while they may still read the history it holds.
 */
export const designHistoryExports = pgTable(
  'design_history_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id').notNull(),
    /** The exported project; null: every project the requester may see. */
    projectId: uuid('project_id'),
    /** pdf or zip. */
    format: text('format').notNull(),
    status: text('status', { enum: ['queued', 'ready', 'failed', 'expired'] })
      .notNull()
      .default('queued'),
    requestedBy: uuid('requested_by').notNull(),
    region: text('region').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    fileName: text('file_name'),
    bytes: integer('bytes'),
    sha256: text('sha256'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    /** When the stored file is removed (set when it is ready). */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('design_history_exports_requester_idx').on(t.requestedBy, t.deviceId, t.createdAt),
    index('design_history_exports_expiry_idx').on(t.expiresAt),
    check('design_history_exports_status_ck', sql`${t.status} in ('queued', 'ready', 'failed', 'expired')`),
  ],
);

/**
 * Files attached to a design history entry (issue 20 item 4): the bytes are kept in the workspace's region under the
 * SHA-256 of their content (`storage_key`, shared by identical files of a workspace), this row says which entry holds
 * them under which name. Immutable (migration 0035's trigger refuses UPDATE and DELETE) and refused once the entry is
 * signed: what a signature of the entry binds (its manifest lists the attachments' hashes) cannot change.
 */
export const designHistoryAttachments = pgTable(
  'design_history_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id').notNull(),
    projectId: uuid('project_id').notNull(),
    entryId: uuid('entry_id').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** SHA-256 (hex) of the bytes. */
    sha256: text('sha256').notNull(),
    region: text('region').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedBy: uuid('uploaded_by').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex('design_history_attachments_entry_file_idx').on(t.entryId, t.sha256),
    index('design_history_attachments_project_idx').on(t.projectId),
    check('design_history_attachments_region_ck', sql`${t.region} in ('eu', 'us')`),
  ],
);
