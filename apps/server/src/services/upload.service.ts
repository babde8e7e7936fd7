import { randomUUID } from 'node:crypto';
import {
  attachmentNameMessage,
  attachmentNameSchema,
  directPartBytes,
  directUnavailableMessage,
  directUrlsPerAnswer,
  imagingZipFileNamePattern,
  notStlMessage,
  notZipMessage,
  stlFileNamePattern,
  uploadExpiryMs,
  uploadMaxBytes,
  uploadPurposes,
  uploadTooLargeMessage,
  type DirectCompleted,
  type DirectPart,
  type DirectUpload,
  type UploadPurpose,
} from '@insilico/contracts';
import { BlobLimitError, type BlobStore, type DataRegion } from '../repositories/blob.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { UploadRepository, UploadRow } from '../repositories/upload.repository';
import { ServiceError } from './errors';
import { authorize } from './authorize';
import { callerGrant } from './caller-grant';

/** What a client learns about an upload (the tus headers are made from it). */
export interface UploadState {
  id: string;
  offset: number;
  length: number;
  metadata: Record<string, string>;
  expiresAt: Date;
}

export interface CreateUpload {
  length: number;
  metadata: Record<string, string>;
}

export const uploadNotFoundMessage = 'This upload does not exist (any more). Please upload the file again.';
export const uploadExpiredMessage = 'This upload has expired. Please upload the file again.';
/** How long a PATCH's write lease lasts without renewal (renewed every third of it while the body streams). */
export const writeLeaseMs = 60_000;
export const uploadBusyMessage = 'Another request is writing this upload. Ask for its offset and continue from there.';
const offsetMismatchMessage = 'The offset does not match the bytes received so far. Ask for the offset and resume.';
const beyondLengthMessage = 'More bytes were sent than the upload length announced.';
const fileNameMissingMessage = 'The upload needs a file name (Upload-Metadata "filename").';
export const directInProgressMessage =
  'This upload is being sent straight to storage: continue it there (its parts), not with tus PATCH.';
const directNotStartedMessage = 'This upload was started with tus PATCH: continue it that way.';
const directCompletedMessage = 'This upload is already complete.';
const partNumberMessage = (count: number) => `The part number must be between 1 and ${count}.`;
const partSizeMessage = (expected: number) => `This part must hold ${expected} bytes.`;
const missingPartsMessage = (missing: number[]) =>
  `Storage does not have every part yet (missing: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}). Send them, then complete the upload.`;
const directSizeMessage = 'The joined upload does not have the announced length. Please upload the file again.';

/**
 * Resumable uploads (tus 1.0.0, see docs/decisions/uploads-tus.md): only people who may create projects (admins
 * and members) upload; an upload belongs to its uploader, who alone may resume, read or end it; it expires
 * `uploadExpiryMs` after its last change. The bytes go straight to the blob store, one PATCH body streamed at a
 * time and never held whole in memory.
 */
export class UploadService {
  constructor(
    private readonly repository: UploadRepository,
    private readonly devices: DeviceRepository,
    private readonly blobs: BlobStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(userId: string, deviceId: string, input: CreateUpload): Promise<UploadState> {
    const region = await this.authorizeUpload(userId, deviceId);
    if (!Number.isSafeInteger(input.length) || input.length < 0)
      throw new ServiceError(400, 'bad_request', 'Upload-Length must be a whole number of bytes.');
    if (input.length > uploadMaxBytes) throw new ServiceError(413, 'upload_too_large', uploadTooLargeMessage);
    const fileName = (input.metadata.filename ?? '').trim();
    if (fileName === '' || fileName.length > 255) throw new ServiceError(400, 'bad_request', fileNameMissingMessage);
    const purpose = purposeOf(input.metadata.purpose);
    if (purpose === 'device_version_model' && !stlFileNamePattern.test(fileName))
      throw new ServiceError(415, 'not_stl', notStlMessage);
    if (purpose === 'imaging_dataset' && !imagingZipFileNamePattern.test(fileName))
      throw new ServiceError(415, 'not_zip', notZipMessage);
    // Refused before any byte is sent rather than when the finished upload is attached.
    if (purpose === 'design_history_attachment' && !attachmentNameSchema.safeParse(fileName).success)
      throw new ServiceError(400, 'bad_request', attachmentNameMessage);
    const id = randomUUID();
    const row = await this.repository.insert({
      id,
      deviceId,
      userId,
      purpose,
      fileName,
      length: input.length,
      offset: 0,
      metadata: input.metadata,
      region,
      storageKey: `uploads/${deviceId}/${id}`,
      expiresAt: this.expiry(),
      completedAt: input.length === 0 ? this.now() : null,
    });
    // An empty file is complete at once; its (empty) bytes still exist, so every upload has a blob.
    if (input.length === 0) await this.blobs.put(row.region, row.storageKey, new Uint8Array(0));
    return stateOf(row);
  }

  async state(userId: string, deviceId: string, uploadId: string): Promise<UploadState> {
    return stateOf(await this.ownUpload(userId, deviceId, uploadId));
  }

  /**
   * Writes one PATCH body at `offset`. A body cut short (the connection dropped) still counts what arrived, so
   * the client resumes from there; a body beyond the announced length is refused and not kept.
   */
  async append(
    userId: string,
    deviceId: string,
    uploadId: string,
    offset: number,
    body: AsyncIterable<Uint8Array>,
    declaredBytes: number | undefined,
  ): Promise<UploadState> {
    const upload = await this.ownUpload(userId, deviceId, uploadId);
    if (upload.multipartId !== null) throw new ServiceError(409, 'direct_upload', directInProgressMessage);
    if (this.leased(upload)) throw new ServiceError(409, 'upload_busy', uploadBusyMessage);
    if (offset !== upload.offset) throw new ServiceError(409, 'offset_mismatch', offsetMismatchMessage);
    const room = upload.length - upload.offset;
    if (declaredBytes !== undefined && declaredBytes > room)
      throw new ServiceError(413, 'beyond_length', beyondLengthMessage);
    // One writer per upload in every server process: the lease is taken in the database and renewed while the
    // body streams; a process that dies leaves a lease that runs out.
    const token = randomUUID();
    if (!(await this.repository.takeWriteLease(upload.id, token, writeLeaseMs)))
      throw new ServiceError(409, 'upload_busy', uploadBusyMessage);
    const renew = setInterval(
      () => void this.repository.renewWriteLease(upload.id, token, writeLeaseMs).catch(() => undefined),
      writeLeaseMs / 3,
    );
    try {
      let written: number;
      try {
        ({ written } = await this.blobs.writeFrom(upload.region, upload.storageKey, upload.offset, body, room));
      } catch (error) {
        if (error instanceof BlobLimitError) throw new ServiceError(413, 'beyond_length', beyondLengthMessage);
        throw error;
      }
      const advanced = await this.repository.advance(upload.id, upload.offset, written, this.expiry());
      // Another process recorded bytes meanwhile (only possible with several servers and no sticky routing).
      if (!advanced) throw new ServiceError(409, 'offset_mismatch', offsetMismatchMessage);
      return stateOf(advanced);
    } finally {
      clearInterval(renew);
      await this.repository.releaseWriteLease(upload.id, token).catch(() => undefined);
    }
  }

  /**
   * Starts (or resumes) sending the upload straight to its region's object storage: answers the part size, the
   * parts storage already holds, and presigned addresses for the others (`directUrlsPerAnswer` at most: ask
   * again for more). 409 `direct_unavailable` when storage is the filesystem (the client uses tus PATCH).
   */
  async direct(userId: string, deviceId: string, uploadId: string): Promise<DirectUpload> {
    const direct = this.blobs.direct;
    if (!direct) throw new ServiceError(409, 'direct_unavailable', directUnavailableMessage);
    let upload = await this.ownUpload(userId, deviceId, uploadId);
    if (upload.completedAt !== null) throw new ServiceError(409, 'upload_complete', directCompletedMessage);
    if (upload.multipartId === null) {
      if (upload.offset > 0 || this.leased(upload)) throw new ServiceError(409, 'tus_upload', directNotStartedMessage);
      const multipartId = await direct.start(upload.region, upload.storageKey);
      if (!(await this.repository.setMultipart(upload.id, multipartId, this.expiry()))) {
        await direct.abort(upload.region, upload.storageKey, multipartId);
        upload = await this.ownUpload(userId, deviceId, uploadId);
        if (upload.multipartId === null) throw new ServiceError(409, 'tus_upload', directNotStartedMessage);
      } else {
        upload = { ...upload, multipartId };
      }
    }
    const multipartId = upload.multipartId!;
    const partCount = Math.ceil(upload.length / directPartBytes);
    const received = Object.keys(upload.parts)
      .map(Number)
      .sort((a, b) => a - b);
    const have = new Set(received);
    const wanted: number[] = [];
    for (let part = 1; part <= partCount && wanted.length < directUrlsPerAnswer; part += 1)
      if (!have.has(part)) wanted.push(part);
    const urlsExpireAt = new Date(this.now().getTime() + direct.presignSeconds * 1000 - 60_000);
    const urls = await Promise.all(
      wanted.map(async (partNumber) => ({
        partNumber,
        url: await direct.partUrl(upload.region, upload.storageKey, multipartId, partNumber),
      })),
    );
    return { partSize: directPartBytes, partCount, received, urls, urlsExpireAt: urlsExpireAt.toISOString() };
  }

  /** Records a part the browser sent into storage (its ETag and size); a re-sent part replaces the earlier one. */
  async directPart(
    userId: string,
    deviceId: string,
    uploadId: string,
    partNumber: number,
    part: DirectPart,
  ): Promise<void> {
    const upload = await this.directUpload(userId, deviceId, uploadId);
    const partCount = Math.ceil(upload.length / directPartBytes);
    if (partNumber > partCount) throw new ServiceError(400, 'bad_request', partNumberMessage(partCount));
    const expected = Math.min(directPartBytes, upload.length - (partNumber - 1) * directPartBytes);
    if (part.bytes !== expected) throw new ServiceError(400, 'bad_request', partSizeMessage(expected));
    const recorded = await this.repository.recordPart(upload.id, upload.multipartId!, partNumber, part, this.expiry());
    if (!recorded) throw new ServiceError(409, 'upload_complete', directCompletedMessage);
  }

  /**
   * Joins the parts in storage once every one was reported, checks the object's size and completes the upload
   * (its offset becomes its length, as a finished tus upload's). One request at a time (the write lease).
   */
  async completeDirect(userId: string, deviceId: string, uploadId: string): Promise<DirectCompleted> {
    const direct = this.blobs.direct!;
    const upload = await this.directUpload(userId, deviceId, uploadId);
    const multipartId = upload.multipartId!;
    const partCount = Math.ceil(upload.length / directPartBytes);
    const missing: number[] = [];
    for (let part = 1; part <= partCount; part += 1) if (!(String(part) in upload.parts)) missing.push(part);
    if (missing.length > 0) throw new ServiceError(409, 'parts_missing', missingPartsMessage(missing));
    const token = randomUUID();
    if (!(await this.repository.takeWriteLease(upload.id, token, writeLeaseMs)))
      throw new ServiceError(409, 'upload_busy', uploadBusyMessage);
    try {
      const parts = Object.entries(upload.parts)
        .map(([number, part]) => ({ partNumber: Number(number), ...part }))
        .sort((a, b) => a.partNumber - b.partNumber);
      let bytes: number;
      try {
        bytes = await direct.complete(upload.region, upload.storageKey, multipartId, parts);
      } catch (error) {
        // Storage refused the parts (an ETag it did not issue, a part it lost): the upload starts again.
        await this.remove(upload);
        throw new ServiceError(409, 'direct_refused', `${directSizeMessage} (${(error as Error).message})`);
      }
      if (bytes !== upload.length) {
        await this.remove(upload);
        throw new ServiceError(409, 'direct_refused', directSizeMessage);
      }
      const completed = await this.repository.completeDirect(upload.id, multipartId, this.expiry());
      if (!completed) throw new ServiceError(409, 'upload_complete', directCompletedMessage);
      return { offset: completed.offset, length: completed.length };
    } finally {
      await this.repository.releaseWriteLease(upload.id, token).catch(() => undefined);
    }
  }

  /** The caller's unfinished direct upload. */
  private async directUpload(userId: string, deviceId: string, uploadId: string): Promise<UploadRow> {
    if (!this.blobs.direct) throw new ServiceError(409, 'direct_unavailable', directUnavailableMessage);
    const upload = await this.ownUpload(userId, deviceId, uploadId);
    if (upload.completedAt !== null) throw new ServiceError(409, 'upload_complete', directCompletedMessage);
    if (upload.multipartId === null) throw new ServiceError(409, 'tus_upload', directNotStartedMessage);
    return upload;
  }

  /** tus termination: the upload and its bytes are removed. */
  async terminate(userId: string, deviceId: string, uploadId: string): Promise<void> {
    const upload = await this.ownUpload(userId, deviceId, uploadId);
    if (this.leased(upload)) throw new ServiceError(409, 'upload_busy', uploadBusyMessage);
    await this.remove(upload);
  }

  /** A PATCH is being written (by this process or another): its lease has not run out. */
  private leased(upload: UploadRow): boolean {
    return upload.writerUntil !== null && upload.writerUntil > this.now();
  }

  /** Removes uploads whose time ran out (the sweep job); answers how many. */
  async expire(limit = 500): Promise<number> {
    let removed = 0;
    for (const upload of await this.repository.expired(this.now(), limit)) {
      if (this.leased(upload)) continue;
      if (await this.remove(upload)) removed += 1;
    }
    return removed;
  }

  /** Whether the caller may upload to the workspace at all (project creators); answers its data region. */
  private async authorizeUpload(userId: string, deviceId: string): Promise<DataRegion> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.devices.findMembership(device, user)),
    );
    const device = await this.devices.findById(deviceId);
    if (!device) throw new ServiceError(404, 'not_found', uploadNotFoundMessage);
    return device.dataRegion;
  }

  /** The caller's own live upload; someone else's answers 404 like a missing one, an expired one 410. */
  private async ownUpload(userId: string, deviceId: string, uploadId: string): Promise<UploadRow> {
    await this.authorizeUpload(userId, deviceId);
    const upload = await this.repository.find(deviceId, uploadId);
    if (!upload || upload.userId !== userId) throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage);
    if (upload.expiresAt <= this.now() && !this.leased(upload)) {
      await this.remove(upload);
      throw new ServiceError(410, 'upload_expired', uploadExpiredMessage);
    }
    return upload;
  }

  /** Deletes the row first (the claim), then the bytes; false when someone else claimed it. */
  private async remove(upload: UploadRow): Promise<boolean> {
    const removed = await this.repository.delete(upload.id);
    if (!removed) return false;
    if (removed.multipartId !== null && removed.completedAt === null)
      await this.blobs.direct?.abort(removed.region, removed.storageKey, removed.multipartId);
    await this.blobs.delete(removed.region, removed.storageKey);
    return true;
  }

  private expiry(): Date {
    return new Date(this.now().getTime() + uploadExpiryMs);
  }
}

function purposeOf(value: string | undefined): UploadPurpose {
  if (value === undefined || value === '') return 'device_version_model';
  const known = uploadPurposes.find((purpose) => purpose === value);
  if (!known) throw new ServiceError(400, 'bad_request', `Unknown upload purpose "${value.slice(0, 40)}".`);
  return known;
}

function stateOf(row: UploadRow): UploadState {
  return { id: row.id, offset: row.offset, length: row.length, metadata: row.metadata, expiresAt: row.expiresAt };
}
