import type { StoredAttachment } from './design-history-bundle';
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  attachmentDuplicateMessage,
  attachmentEmptyMessage,
  attachmentHashMismatchMessage,
  attachmentNameSchema,
  attachmentMaxBytes,
  attachmentNotFoundMessage,
  attachmentSignedMessage,
  attachmentsPerEntryMax,
  attachmentsTooManyMessage,
  attachmentTooBigMessage,
  attachmentTypeMessage,
  attachmentUploadPurposeMessage,
  attachmentUploadUnfinishedMessage,
  attachmentNameMessage,
  dataRegions,
  designHistoryEndpoints,
  pathOf,
  type DataRegion,
  type AttachUpload,
  type DesignHistoryAttachment,
} from '@insilico/contracts';
import { projectEvent } from '../events/kinds';
import { BlobLimitError, type BlobStore } from '../repositories/blob.repository';
import type {
  DesignHistoryAttachmentRow,
  DesignHistoryEntryRow,
  DesignHistoryRepository,
} from '../repositories/design-history.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { UploadRepository } from '../repositories/upload.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';
import { uploadNotFoundMessage } from './upload.service';

export const attachmentAddedAction = 'design_history.attachment_added';

/** A MIME type as a client declares it (`type/subtype`, parameters dropped); anything else is refused. */
const contentTypePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The declared content type, without parameters, lower case; `application/octet-stream` when none was declared. */
export function attachmentContentType(declared: string | undefined): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '') return 'application/octet-stream';
  if (!contentTypePattern.test(type)) throw new ServiceError(415, 'attachment_type', attachmentTypeMessage);
  return type;
}

/**
 * Content addressing: a file is stored under the SHA-256 of its bytes in its workspace, so the same file attached
 * twice is stored once and a stored file can never be changed under its key.
 */
export function attachmentStorageKey(deviceId: string, sha256: string): string {
  return `design-history/${deviceId}/attachments/sha256/${sha256}`;
}

/** Where an upload is written while its SHA-256 is not yet known (then moved to its content address). */
function incomingKey(deviceId: string): string {
  return `design-history/${deviceId}/attachments/incoming/${randomUUID()}`;
}

/** An upload's temporary (or a part of one a crashed writer left) under any workspace. */
const incomingPattern = /^design-history\/[^/]+\/attachments\/incoming\//;

/**
 * How long an upload's temporary may go unchanged before the sweep removes it (docs/decisions/temporary-files.md): an
 * upload that is still arriving changes its file with every chunk, so only one whose writer crashed or stalled for
 * hours is removed; a request stalls for minutes at most before the server ends it.
 */
export const incomingGraceMs = 6 * 60 * 60 * 1000;

/**
 * Removes the temporaries of streamed attachments that never got moved to their content address (the process
 * ended between the two), unchanged for longer than `incomingGraceMs`; answers how many files and bytes. Scheduled
 * hourly (`design-history.incoming-sweep`); idempotent.
 */
export async function sweepIncomingAttachments(
  blobs: Pick<BlobStore, 'list' | 'delete'>,
  now: Date,
): Promise<{ removed: number; bytes: number }> {
  const before = now.getTime() - incomingGraceMs;
  let removed = 0;
  let bytes = 0;
  for (const region of dataRegions) {
    for await (const file of blobs.list(region, 'design-history/')) {
      if (!incomingPattern.test(file.key) || file.modifiedAt.getTime() > before) continue;
      await blobs.delete(region, file.key);
      removed += 1;
      bytes += file.bytes;
    }
  }
  return { removed, bytes };
}

/** A file attached to an entry as the request brings it: read once, as it arrives. */
export interface AttachmentUpload {
  fileName: string;
  contentType: string | undefined;
  /** The length the client declared, if any: more than the limit is refused before a byte is read. */
  declaredBytes: number | undefined;
  body: AsyncIterable<Uint8Array>;
}

/** The attachments' size limit (413, the spec-style message): a declared length above it, or a longer stream. */
export function attachmentTooBig(): ServiceError {
  return new ServiceError(413, 'attachment_too_big', attachmentTooBigMessage);
}

/**
 * Streams an upload into storage under a temporary key while hashing it (the file is never held whole), refusing it
 * at the chunk that crosses `maxBytes`, then moves it to its content address; answers its size and SHA-256. An empty
 * file leaves nothing stored.
 */
export async function storeStreamed(
  blobs: BlobStore,
  region: DataRegion,
  deviceId: string,
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<{ bytes: number; sha256: string; storageKey: string }> {
  const hash = createHash('sha256');
  const hashing = async function* () {
    for await (const chunk of body) {
      hash.update(chunk);
      yield chunk;
    }
  };
  const temporary = incomingKey(deviceId);
  let bytes: number;
  try {
    bytes = await blobs.putFrom(region, temporary, hashing(), maxBytes);
  } catch (error) {
    if (error instanceof BlobLimitError) throw attachmentTooBig();
    throw error;
  }
  if (bytes === 0) {
    await blobs.delete(region, temporary);
    throw new ServiceError(400, 'attachment_empty', attachmentEmptyMessage);
  }
  const sha256 = hash.digest('hex');
  const storageKey = attachmentStorageKey(deviceId, sha256);
  // The same bytes under the same key whoever writes them: replacing an earlier copy changes nothing.
  await blobs.move(region, temporary, storageKey);
  return { bytes, sha256, storageKey };
}

/**
 * The size and SHA-256 of a stored file, read as a stream (never whole in memory); null when storage has no such
 * file.
 */
export async function hashStored(
  blobs: Pick<BlobStore, 'open'>,
  region: DataRegion,
  key: string,
): Promise<{ bytes: number; sha256: string } | null> {
  const file = await blobs.open(region, key);
  if (!file) return null;
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of file.stream as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  return { bytes, sha256: hash.digest('hex') };
}

export function presentAttachment(row: DesignHistoryAttachmentRow): DesignHistoryAttachment {
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    bytes: row.bytes,
    sha256: row.sha256,
    uploadedAt: row.uploadedAt.toISOString(),
    download: pathOf(designHistoryEndpoints.attachment, {
      deviceId: row.deviceId,
      entryId: row.entryId,
      attachmentId: row.id,
    }),
  };
}

/**
 * Files attached to design history entries (issue 20 item 4): whoever may work on the entry's project attaches files
 * while nobody has signed the entry; the bytes are stored content-addressed in the workspace's region before the row
 * and its `design_history.attachment_added` event (name, type, size, SHA-256) commit together; whoever may read the
 * project downloads them. Nothing is ever changed or removed (the database refuses it).
 */
export class DesignHistoryAttachmentService {
  constructor(
    private readonly deps: {
      unitOfWork: UnitOfWork;
      repository: DesignHistoryRepository;
      devices: Pick<DeviceRepository, 'findById'>;
      projectAccess: ProjectAccessService;
      blobs: BlobStore;
      uploads: Pick<UploadRepository, 'find' | 'delete'>;
    },
  ) {}

  async attach(
    userId: string,
    deviceId: string,
    entryId: string,
    file: AttachmentUpload,
  ): Promise<DesignHistoryAttachment> {
    const entry = await this.writableEntry(userId, deviceId, entryId);
    const contentType = attachmentContentType(file.contentType);
    if (file.declaredBytes !== undefined && file.declaredBytes > attachmentMaxBytes) throw attachmentTooBig();
    const region: DataRegion = (await this.deps.devices.findById(deviceId))?.dataRegion ?? 'eu';
    // Stored first: a rolled-back attachment leaves at most a file under its content address that a later
    // attachment of the same bytes uses again.
    const stored = await storeStreamed(this.deps.blobs, region, deviceId, file.body, attachmentMaxBytes);
    return this.record(userId, deviceId, entry, { fileName: file.fileName, contentType, region, ...stored });
  }

  /**
   * Attaches a finished resumable upload (tus, purpose `design_history_attachment`: files above the one-request
   * limit, sent in pieces that survive a dropped connection or a reload). The server reads the stored bytes as a
   * stream to learn their size and SHA-256 (checked against the upload's length and, when sent, the client's hash),
   * takes the upload over (its row deleted: nobody else can attach or resume it) and moves the bytes to their
   * content address without copying them through the process; then the row and its event commit as for `attach`.
   */
  async attachUpload(
    userId: string,
    deviceId: string,
    entryId: string,
    input: AttachUpload,
  ): Promise<DesignHistoryAttachment> {
    const entry = await this.writableEntry(userId, deviceId, entryId);
    const upload = await this.deps.uploads.find(deviceId, input.uploadId);
    // Someone else's upload answers like a missing one.
    if (!upload || upload.userId !== userId || upload.expiresAt <= new Date())
      throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage);
    if (upload.purpose !== 'design_history_attachment')
      throw new ServiceError(415, 'not_attachment_upload', attachmentUploadPurposeMessage);
    if (upload.completedAt === null || upload.offset !== upload.length)
      throw new ServiceError(409, 'upload_unfinished', attachmentUploadUnfinishedMessage);
    if (upload.length === 0) throw new ServiceError(400, 'attachment_empty', attachmentEmptyMessage);
    const name = attachmentNameSchema.safeParse(upload.fileName);
    if (!name.success) throw new ServiceError(400, 'bad_request', attachmentNameMessage);
    const contentType = attachmentContentType(upload.metadata.filetype);
    const stored = await hashStored(this.deps.blobs, upload.region, upload.storageKey);
    if (!stored || stored.bytes !== upload.length) {
      // Storage does not hold what the upload recorded: nothing can be attached from it.
      await this.deps.uploads.delete(upload.id);
      throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage);
    }
    if (input.sha256 !== undefined && input.sha256 !== stored.sha256)
      throw new ServiceError(422, 'attachment_hash_mismatch', attachmentHashMismatchMessage);
    // The claim: only one request takes the upload over (a second one, or the expiry sweep, finds no row).
    if (!(await this.deps.uploads.delete(upload.id)))
      throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage);
    const storageKey = attachmentStorageKey(deviceId, stored.sha256);
    await this.deps.blobs.move(upload.region, upload.storageKey, storageKey);
    return this.record(userId, deviceId, entry, {
      fileName: name.data,
      contentType,
      region: upload.region,
      bytes: stored.bytes,
      sha256: stored.sha256,
      storageKey,
    });
  }

  /** The entry, if the caller may attach to it: it exists, they may work on its project, and nobody signed it. */
  private async writableEntry(userId: string, deviceId: string, entryId: string): Promise<DesignHistoryEntryRow> {
    const entry = await this.deps.repository.entry(deviceId, entryId);
    if (!entry) throw new ServiceError(404, 'entry_not_found', 'This design history entry does not exist.');
    await this.deps.projectAccess.require('project.work', userId, deviceId, entry.projectId);
    // Refused before the bytes are read; checked again under the entry's lock in `record`.
    if (await this.deps.repository.isSigned('entry', entryId))
      throw new ServiceError(409, 'entry_signed', attachmentSignedMessage);
    return entry;
  }

  /** The row and its event, in one unit of work under the entry's lock (the bytes are in storage already). */
  private async record(
    userId: string,
    deviceId: string,
    entry: Pick<DesignHistoryEntryRow, 'id' | 'projectId'>,
    file: {
      fileName: string;
      contentType: string;
      region: DataRegion;
      bytes: number;
      sha256: string;
      storageKey: string;
    },
  ): Promise<DesignHistoryAttachment> {
    const entryId = entry.id;
    const { fileName, contentType, region, bytes, sha256, storageKey } = file;
    const row = await this.deps.unitOfWork.run(async (tx) => {
      if (!(await tx.designHistory.lockEntry(deviceId, entryId)))
        throw new ServiceError(404, 'entry_not_found', 'This design history entry does not exist.');
      if (await tx.designHistory.isSigned('entry', entryId))
        throw new ServiceError(409, 'entry_signed', attachmentSignedMessage);
      const attached = await tx.designHistory.attachmentsOf([entryId]);
      if (attached.some((a) => a.sha256 === sha256))
        throw new ServiceError(409, 'attachment_duplicate', attachmentDuplicateMessage);
      if (attached.length >= attachmentsPerEntryMax)
        throw new ServiceError(409, 'attachments_too_many', attachmentsTooManyMessage);
      const inserted = await tx.designHistory.insertAttachment({
        id: randomUUID(),
        deviceId,
        projectId: entry.projectId,
        entryId,
        fileName,
        contentType,
        bytes,
        sha256,
        region,
        storageKey,
        uploadedBy: userId,
      });
      tx.events.record({
        ...projectEvent(userId, deviceId, entry.projectId, attachmentAddedAction, {
          type: 'design_history_attachment',
          id: inserted.id,
        }),
        after: { entryId, fileName: inserted.fileName, contentType, bytes: inserted.bytes, sha256 },
      });
      return inserted;
    });
    return presentAttachment(row);
  }

  /** The hourly sweep of upload temporaries a crash left (see `sweepIncomingAttachments`). */
  sweepIncoming(now: Date): Promise<{ removed: number; bytes: number }> {
    return sweepIncomingAttachments(this.deps.blobs, now);
  }

  /** An attached file for whoever may read its project (a guest: a project they are on). */
  async download(
    userId: string,
    deviceId: string,
    entryId: string,
    attachmentId: string,
  ): Promise<{ stream: Readable; bytes: number; fileName: string; contentType: string; sha256: string }> {
    const row = await this.deps.repository.attachment(deviceId, entryId, attachmentId);
    if (!row) throw new ServiceError(404, 'attachment_not_found', attachmentNotFoundMessage);
    await this.deps.projectAccess.require('project.read', userId, deviceId, row.projectId);
    const file = await this.deps.blobs.open(row.region as DataRegion, row.storageKey);
    if (!file) throw new Error(`The attached file ${row.id} is missing from storage (${row.storageKey}).`);
    return {
      stream: file.stream,
      bytes: file.bytes,
      fileName: row.fileName,
      contentType: row.contentType,
      sha256: row.sha256,
    };
  }

  /**
   * The attached files of these entries in storage, with what the file lists of each: an export's ZIP opens each as
   * a stream when it takes it in (design-history-bundle.ts), so none is copied or read ahead.
   */
  async storedFiles(entryIds: readonly string[]): Promise<StoredAttachment[]> {
    return (await this.deps.repository.attachmentsOf(entryIds)).map((row) => ({
      entryId: row.entryId,
      id: row.id,
      fileName: row.fileName,
      sha256: row.sha256,
      bytes: row.bytes,
      open: async () => {
        const file = await this.deps.blobs.open(row.region as DataRegion, row.storageKey);
        if (!file) throw new Error(`The attached file ${row.id} is missing from storage (${row.storageKey}).`);
        return file.stream as AsyncIterable<Uint8Array>;
      },
    }));
  }
}
