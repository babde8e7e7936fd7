import { z } from 'zod';
import { text } from './text';
import { designHistoryAttachmentSchema } from './design-history-attachments';

/**
 * The design history file (issue 20 item 4, ISO 13485 §7.3.10) and electronic signatures (item 5, 21 CFR Part 11
 * §11.50, §11.70, §11.200): a project's timeline of design inputs, outputs, verification and validation evidence and
 * reviews, built from the audit trail's events and people's entries; a record signed with a meaning.
 */

/** The timeline's sections. */
export const designHistorySections = ['input', 'output', 'evidence', 'review'] as const;
export type DesignHistorySection = (typeof designHistorySections)[number];
export const designHistorySectionLabels: Record<DesignHistorySection, string> = {
  input: 'Design inputs',
  output: 'Design outputs',
  evidence: 'Verification and validation evidence',
  review: 'Reviews and approvals',
};

/** What a manual entry is, and the section it belongs to. */
export const designHistoryEntryKinds = [
  'design_input',
  'design_output',
  'verification',
  'validation',
  'review',
  'note',
] as const;
export type DesignHistoryEntryKind = (typeof designHistoryEntryKinds)[number];
export const designHistoryEntryKindLabels: Record<DesignHistoryEntryKind, string> = {
  design_input: 'Design input',
  design_output: 'Design output',
  verification: 'Verification',
  validation: 'Validation',
  review: 'Design review',
  note: 'Note',
};
export const entryKindSections: Record<DesignHistoryEntryKind, DesignHistorySection> = {
  design_input: 'input',
  design_output: 'output',
  verification: 'evidence',
  validation: 'evidence',
  review: 'review',
  note: 'review',
};

/** The meaning of a signature (§11.50(a)(3)). */
export const signatureMeanings = ['review', 'approval', 'responsibility', 'authorship'] as const;
export type SignatureMeaning = (typeof signatureMeanings)[number];
export const signatureMeaningLabels: Record<SignatureMeaning, string> = {
  review: 'Reviewed',
  approval: 'Approved',
  responsibility: 'Responsible',
  authorship: 'Authored',
};

export const entryTitleMaxLength = 200;
export const entryBodyMaxLength = 10_000;
export const entryTitleRequiredMessage = 'Give the entry a title.';
export const entryTitleTooLongMessage = `An entry title can be at most ${entryTitleMaxLength} characters.`;
export const entryBodyTooLongMessage = `An entry text can be at most ${entryBodyMaxLength} characters.`;
export const signedEntryMessage =
  'This entry is signed and cannot be changed. Add a new entry that supersedes it instead.';
export const alreadySignedMessage = 'You have signed this record with this meaning already.';
export const signaturePasswordRequiredMessage = 'Enter your password to sign.';
export const signatureEmailRequiredMessage =
  'Enter your e-mail address and your password: the first signature of a session needs both.';
export const signatureCredentialsMessage = 'The e-mail address or password is not correct. Nothing was signed.';

/** One signature as every page that shows the record shows it (§11.50: name, time, meaning). */
export const signatureSchema = z.object({
  id: z.uuid(),
  meaning: z.enum(signatureMeanings),
  signer: z.object({ id: z.uuid(), name: text() }),
  /** UTC, ISO 8601. */
  signedAt: text(),
  /** SHA-256 of the canonical manifest of what was signed. */
  contentHash: text(),
  /** False when the record no longer gives the signed hash (never expected: the database refuses the change). */
  valid: z.boolean(),
});
export type Signature = z.infer<typeof signatureSchema>;

/** What a signature names: an entry, or an event of the trail (an evidence snapshot). */
export const signedRecordSchema = z.object({ type: z.enum(['entry', 'event']), id: text().min(1).max(64) });
export type SignedRecord = z.infer<typeof signedRecordSchema>;

export const designHistoryEntrySchema = z.object({
  id: z.uuid(),
  kind: z.enum(designHistoryEntryKinds),
  title: text(),
  body: text(),
  evidenceEventIds: z.array(z.number().int()),
  supersedesId: z.uuid().nullable(),
  /** The entry that replaced this one, if any. */
  supersededById: z.uuid().nullable(),
  /** Files attached to the entry, oldest first. */
  attachments: z.array(designHistoryAttachmentSchema),
});
export type DesignHistoryEntry = z.infer<typeof designHistoryEntrySchema>;

/** One item of the timeline: an event of the trail, with its entry when it is one, and its signatures. */
export const designHistoryItemSchema = z.object({
  /** The event's id in the trail. */
  id: z.number().int(),
  occurredAt: text(),
  section: z.enum(designHistorySections),
  action: text(),
  summary: text(),
  actor: z.object({ id: text(), name: text() }).nullable(),
  project: z.object({ id: text(), name: text() }),
  reason: text().nullable(),
  link: text().nullable(),
  /** The object's state as the event recorded it (an immutable snapshot, not a live link). */
  snapshot: z.unknown(),
  entry: designHistoryEntrySchema.nullable(),
  /** An entry's trace links: the events it cites as evidence, as the timeline shows them. */
  evidence: z.array(z.object({ id: z.number().int(), summary: text(), link: text().nullable() })),
  /**
   * Change impact: evidence made with a device version that another version has followed in the project since
   * (the evidence is to be re-run on it); null when current or not evidence of a version.
   */
  toBeRerun: z.object({ versionId: text(), versionName: text() }).nullable(),
  /**
   * Results that stay (issue 20 item 7): the results kept when the evidence entered the design history (an analysis
   * saved, a simulation, trial or shape model finished: `GET …/result-snapshots/:id`), with the SHA-256 of their
   * content, the time and the code version; absent for evidence without results kept. The event names the hash, so signing the event binds the results.
   */
  resultsSnapshot: z
    .object({ id: text(), sha256: text(), takenAt: text(), codeVersion: text(), revision: z.number().int() })
    .optional(),
  /** What "Sign" signs for this item. */
  record: signedRecordSchema,
  signatures: z.array(signatureSchema),
});
export type DesignHistoryItem = z.infer<typeof designHistoryItemSchema>;

/** `GET /api/devices/:deviceId/design-history`: newest first, paged by `before` (the last item's id). */
export const designHistoryQuerySchema = z.object({
  projectId: z.uuid().optional(),
  section: z.enum(designHistorySections).optional(),
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type DesignHistoryQuery = z.infer<typeof designHistoryQuerySchema>;

export const designHistoryListSchema = z.object({
  items: z.array(designHistoryItemSchema),
  nextBefore: z.number().int().nullable(),
  /** The projects the caller may see (the filter, and the list whose hover highlights their entries). */
  projects: z.array(
    z.object({
      id: z.uuid(),
      name: text(),
      /** Add entries and attach files (project.work): the project's team, guests excepted. */
      canWork: z.boolean(),
      /** Sign its records (project.sign): the project's team, guests excepted. */
      canSign: z.boolean(),
    }),
  ),
  signing: z.object({
    /**
     * How a signer proves it is them: `password` re-entered here (the embedded issuer), or `issuer`, a fresh sign-in
     * at the external identity provider (`POST …/signatures/reauthentication`, then the issuer's page).
     */
    method: z.enum(['password', 'issuer']),
    /** The first signing of this session asks for the e-mail address as well as the password. */
    needsEmail: z.boolean(),
  }),
});
export type DesignHistoryList = z.infer<typeof designHistoryListSchema>;

/** `GET /api/devices/:deviceId/design-history/export?projectId=` (CSV). */
export const designHistoryExportQuerySchema = z.object({ projectId: z.uuid().optional() });

/**
 * The design history file as a signed-off-readable PDF (headings, trace matrix, signatures, the audit excerpt), or a
 * ZIP of that PDF with the evidence it references and a manifest of SHA-256 hashes (issue 20 item 6).
 */
export const designHistoryFileFormats = ['pdf', 'zip'] as const;
export type DesignHistoryFileFormat = (typeof designHistoryFileFormats)[number];

/** `POST /api/devices/:deviceId/design-history/exports`: answers the file; the export is recorded in the trail. */
export const designHistoryFileRequestSchema = z.object({
  /** One project's file; without it, every project the caller may see. */
  projectId: z.uuid().optional(),
  format: z.enum(designHistoryFileFormats),
});
export type DesignHistoryFileRequest = z.infer<typeof designHistoryFileRequestSchema>;

/** The response header with the file's SHA-256 (hex), as the trail records it. */
export const designHistoryFileHashHeader = 'X-Content-SHA256';
export const designHistoryProjectNotFoundMessage = 'This project is not in the design history you can see.';

/** Days a file made by an export job is kept for its requester before it is removed. */
export const designHistoryExportRetentionDays = 7;
export const designHistoryExportExpiredMessage = `This file was removed ${designHistoryExportRetentionDays} days after it was made. Export the design history again.`;
export const designHistoryExportNotFoundMessage = 'This export does not exist or is not yours.';

/**
 * A design history file made by a job (a large history): `POST …/exports` answers 202 with it instead of the file;
 * `download` is the file's address once it is ready (its requester only).
 */
export const designHistoryExportSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid().nullable(),
  format: z.enum(designHistoryFileFormats),
  status: z.enum(['queued', 'ready', 'failed', 'expired']),
  requestedAt: z.string(),
  fileName: z.string().nullable(),
  bytes: z.number().int().nullable(),
  sha256: z.string().nullable(),
  error: z.string().nullable(),
  expiresAt: z.string().nullable(),
  download: z.string().nullable(),
});
export type DesignHistoryExport = z.infer<typeof designHistoryExportSchema>;
export const designHistoryExportListSchema = z.object({ items: z.array(designHistoryExportSchema) });
export type DesignHistoryExportList = z.infer<typeof designHistoryExportListSchema>;
export const designHistoryExportParamsSchema = z.object({ deviceId: z.uuid(), exportId: z.uuid() });

const entryTitle = text().trim().min(1, entryTitleRequiredMessage).max(entryTitleMaxLength, entryTitleTooLongMessage);
const entryBody = text().trim().max(entryBodyMaxLength, entryBodyTooLongMessage);

/** `POST /api/devices/:deviceId/design-history/entries` (newDesignHistoryEntry). */
export const newDesignHistoryEntrySchema = z.object({
  projectId: z.uuid(),
  kind: z.enum(designHistoryEntryKinds),
  title: entryTitle,
  body: entryBody.default(''),
  evidenceEventIds: z.array(z.number().int().min(1)).max(50).default([]),
  supersedesId: z.uuid().optional(),
});
export type NewDesignHistoryEntry = z.infer<typeof newDesignHistoryEntrySchema>;

/** `PATCH /api/devices/:deviceId/design-history/entries/:entryId`: only while no one has signed it. */
export const designHistoryEntryPatchSchema = z
  .object({ kind: z.enum(designHistoryEntryKinds), title: entryTitle, body: entryBody })
  .partial();
export type DesignHistoryEntryPatch = z.infer<typeof designHistoryEntryPatchSchema>;

export const designHistoryEntryParamsSchema = z.object({ deviceId: z.uuid(), entryId: z.uuid() });

/** `POST /api/devices/:deviceId/design-history/signatures`: both components at a session's first signing. */
export const signRequestSchema = z.object({
  record: signedRecordSchema,
  meaning: z.enum(signatureMeanings),
  email: text().trim().max(254).optional(),
  password: text().min(1, signaturePasswordRequiredMessage).max(1024),
});
export type SignRequest = z.infer<typeof signRequestSchema>;

/**
 * Results that stay (issue 20 item 7): the results of a piece of evidence kept when it entered the design history (an
 * analysis saved, a simulation or trial finished, a measurement order ready or corrected, a shape model built),
 * append-only; `contentHash` is the SHA-256 of the canonical JSON of `content` (object keys sorted, no spaces), the
 * hash its event names. Readable by whoever may read the object (its project, or the workspace's measurements).
 */
export const resultSnapshotSchema = z.object({
  id: text(),
  objectType: z.enum(['analysis', 'simulation', 'trial', 'measurement', 'ssm']),
  objectId: text(),
  projectId: text().nullable(),
  revision: z.number().int(),
  codeVersion: text(),
  takenAt: text(),
  contentHash: text(),
  content: z.record(z.string(), z.unknown()),
});
export type ResultSnapshot = z.infer<typeof resultSnapshotSchema>;

export const resultSnapshotParamsSchema = z.object({ deviceId: z.uuid(), snapshotId: z.uuid() });
