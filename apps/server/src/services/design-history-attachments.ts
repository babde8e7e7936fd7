import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  attachmentDownloadPath,
  attachmentDuplicateMessage,
  attachmentEmptyMessage,
  attachmentNotFoundMessage,
  attachmentSignedMessage,
  attachmentsPerEntryMax,
  attachmentsTooManyMessage,
  attachmentTypeMessage,
  type DataRegion,
  type DesignHistoryAttachment,
} from '@insilico/contracts';
import { projectEvent } from '../events/kinds';
import type { BlobStore } from '../repositories/blob.repository';
import type { DesignHistoryAttachmentRow, DesignHistoryRepository } from '../repositories/design-history.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';

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

export function presentAttachment(row: DesignHistoryAttachmentRow): DesignHistoryAttachment {
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    bytes: row.bytes,
    sha256: row.sha256,
    uploadedAt: row.uploadedAt.toISOString(),
    download: attachmentDownloadPath(row.deviceId, row.entryId, row.id),
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
    },
  ) {}

  async attach(
    userId: string,
    deviceId: string,
    entryId: string,
    file: { fileName: string; contentType: string | undefined; read: () => Promise<Uint8Array> },
  ): Promise<DesignHistoryAttachment> {
    const entry = await this.deps.repository.entry(deviceId, entryId);
    if (!entry) throw new ServiceError(404, 'entry_not_found', 'This design history entry does not exist.');
    await this.deps.projectAccess.require('project.work', userId, deviceId, entry.projectId);
    const contentType = attachmentContentType(file.contentType);
    // Refused before the bytes are read; checked again under the entry's lock below.
    if (await this.deps.repository.isSigned('entry', entryId))
      throw new ServiceError(409, 'entry_signed', attachmentSignedMessage);
    const bytes = await file.read();
    if (bytes.length === 0) throw new ServiceError(400, 'attachment_empty', attachmentEmptyMessage);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const region: DataRegion = (await this.deps.devices.findById(deviceId))?.dataRegion ?? 'eu';
    const storageKey = attachmentStorageKey(deviceId, sha256);
    // Stored first: the same bytes under the same key whoever writes them, so a rolled-back attachment leaves at most
    // a file that a later attachment of the same bytes uses again.
    await this.deps.blobs.put(region, storageKey, bytes);
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
        fileName: file.fileName,
        contentType,
        bytes: bytes.length,
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
   * The attached files of these entries on this machine's disk (an export's ZIP reads them in the CPU pool), with
   * what the file lists of each.
   */
  async localFiles(
    entryIds: readonly string[],
  ): Promise<{ entryId: string; id: string; fileName: string; sha256: string; bytes: number; path: string }[]> {
    const rows = await this.deps.repository.attachmentsOf(entryIds);
    const files = [];
    for (const row of rows) {
      const local = await this.deps.blobs.localFile(row.region as DataRegion, row.storageKey);
      if (!local) throw new Error(`The attached file ${row.id} is missing from storage (${row.storageKey}).`);
      files.push({
        entryId: row.entryId,
        id: row.id,
        fileName: row.fileName,
        sha256: row.sha256,
        bytes: row.bytes,
        path: local.path,
      });
    }
    return files;
  }
}
