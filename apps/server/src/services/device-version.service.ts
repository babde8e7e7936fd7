import type { Readable } from 'node:stream';
import {
  deviceVersionEndpoints,
  deviceVersionFailedMessage,
  deviceVersionInRoomsMessage,
  deviceVersionNameTakenMessage,
  deviceVersionProcessingDeleteMessage,
  pathOf,
  stlFileNamePattern,
  notStlMessage,
  versionInProjectRoomsMessage,
  type CreateDeviceVersion,
  type DeviceVersion,
  type DeviceVersionList,
  type DeviceVersionNameAvailability,
  type DeviceVersionStatus,
} from '@insilico/contracts';
import { deviceVersionJob, type DeviceVersionJobData } from '../jobs/device-version.job';
import { type WorkspaceGrant } from '../policies/workspace.policy';
import type { CpuRunner } from '../cpu/pool';
import { previewSize, processStlFileTask } from '../cpu/stl.task';
import { withLocalFile, type BlobStore, type DataRegion } from '../repositories/blob.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import {
  UploadGoneError,
  type DeviceVersionFileWithStorage,
  type DeviceVersionListRow,
  type DeviceVersionRepository,
} from '../repositories/device-version.repository';
import type { UploadRepository } from '../repositories/upload.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { projectEvent, systemEvent, workspaceEvent } from '../events/kinds';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';
import { uploadNotFoundMessage } from './upload.service';
import { authorize } from './authorize';
import { callerGrant } from './caller-grant';

export const deviceVersionNotFoundMessage = 'This device version does not exist in this device workspace.';
const fileNotFoundMessage = 'This file is not part of the device version, or it has not been processed yet.';
const uploadUnfinishedMessage = 'A file has not finished uploading yet. Wait for it, or remove it and try again.';
const notReadyMessage = 'Only a processed device version can be added to a project. Please wait until it is ready.';
const notOnProjectMessage = 'This device version is not part of the project.';

/** What the processing job needs besides the version id. */
export interface ProcessingWork {
  progress(fraction: number, message?: string): Promise<void>;
  signal: AbortSignal;
}

export interface DeviceVersionServiceDeps {
  repository: DeviceVersionRepository;
  devices: DeviceRepository;
  uploads: UploadRepository;
  blobs: BlobStore;
  /** Creates a version and enqueues its job in one transaction. */
  unitOfWork: UnitOfWork;
  projectAccess: ProjectAccessService;
  /** Where the STL parse, checks and preview run: worker threads, not the event loop that answers requests. */
  cpu: CpuRunner;
  /** A ready version joined a project (device CI: trials that re-run automatically, issue 17). */
  joinedProject?: (projectId: string, versionId: string) => Promise<void>;
}

/** The bytes of a stored file, streamed, with what the answer needs to name them. */
export interface StoredContent {
  stream: Readable;
  bytes: number;
  contentType: string;
  fileName: string;
  /** Stable while the bytes are (files never change once stored). */
  etag: string;
}

/**
 * Device versions of a workspace (spec §3, §4 "New device version", §5, §8): created from finished uploads by
 * admins and members, processed by a durable job (validate, measure, preview), read by everyone in the
 * workspace (guests only those of their projects), downloaded, and added to or removed from projects.
 */
export class DeviceVersionService {
  constructor(private readonly deps: DeviceVersionServiceDeps) {}

  async nameAvailable(userId: string, deviceId: string, name: string): Promise<DeviceVersionNameAvailability> {
    authorize('project.create', await this.grant(userId, deviceId));
    const taken = await this.deps.repository.nameTaken(deviceId, name);
    return { available: !taken, message: taken ? deviceVersionNameTakenMessage : null };
  }

  async create(userId: string, deviceId: string, input: CreateDeviceVersion): Promise<DeviceVersion> {
    authorize('project.create', await this.grant(userId, deviceId));
    const targetProjectId = input.targetProjectId ?? null;
    if (targetProjectId) await this.deps.projectAccess.require('project.manage', userId, deviceId, targetProjectId);
    const name = input.name.trim();
    if (await this.deps.repository.nameTaken(deviceId, name))
      throw new ServiceError(409, 'device_version_name_taken', deviceVersionNameTakenMessage);
    const found = new Map((await this.deps.uploads.findMany(deviceId, input.uploadIds)).map((u) => [u.id, u]));
    const files = input.uploadIds.map((uploadId) => {
      const upload = found.get(uploadId);
      // Someone else's upload is not the caller's to use: it answers like a missing one.
      if (!upload || upload.userId !== userId || upload.expiresAt <= new Date())
        throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage, { uploadId });
      if (upload.completedAt === null || upload.offset !== upload.length)
        throw new ServiceError(409, 'upload_unfinished', uploadUnfinishedMessage, { uploadId });
      if (upload.purpose !== 'device_version_model' || !stlFileNamePattern.test(upload.fileName))
        throw new ServiceError(415, 'not_stl', notStlMessage, { uploadId });
      return { uploadId, fileName: upload.fileName, bytes: upload.length };
    });
    // The version, the uploads it takes over and its job commit together: never "processing" without a job.
    let row;
    try {
      row = await this.deps.unitOfWork.run(async (tx) => {
        const created = await tx.deviceVersions.create(
          { deviceId, name, description: input.description ?? '', createdBy: userId, targetProjectId },
          files,
        );
        if (!created) return null;
        const data: DeviceVersionJobData = { versionId: created.id };
        const run = await tx.jobs.enqueue(deviceVersionJob, data, userId);
        await tx.deviceVersions.setJob(created.id, run.id);
        tx.events.record({
          actorId: userId,
          action: 'device_version.created',
          objectType: 'device_version',
          objectId: created.id,
          deviceId,
          projectId: targetProjectId,
          after: { name, description: input.description ?? '', files, targetProjectId },
        });
        return created;
      });
    } catch (error) {
      if (error instanceof UploadGoneError)
        throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage, { uploadId: error.uploadId });
      throw error;
    }
    if (!row) throw new ServiceError(409, 'device_version_name_taken', deviceVersionNameTakenMessage);
    return this.get(userId, deviceId, row.id);
  }

  async list(
    userId: string,
    deviceId: string,
    query: { search: string; status: DeviceVersionStatus[]; ids?: string[]; page: number; pageSize: number },
  ): Promise<DeviceVersionList> {
    const grant = await this.grant(userId, deviceId);
    authorize('workspace.view', grant);
    const guestUserId = grant.role === 'guest' ? userId : null;
    const { rows, total } = await this.deps.repository.list(
      deviceId,
      { search: query.search, statuses: query.status, ids: query.ids, guestUserId },
      { offset: (query.page - 1) * query.pageSize, limit: query.pageSize },
    );
    return {
      items: await this.present(deviceId, rows, guestUserId),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async get(userId: string, deviceId: string, versionId: string): Promise<DeviceVersion> {
    const { row, guestUserId } = await this.readable(userId, deviceId, versionId);
    return (await this.present(deviceId, [row], guestUserId))[0]!;
  }

  /** The uploaded model of one file (binary or ASCII STL, as uploaded). */
  async model(userId: string, deviceId: string, versionId: string, fileId: string): Promise<StoredContent> {
    const file = await this.file(userId, deviceId, versionId, fileId);
    if (!file.model) throw new ServiceError(404, 'not_found', fileNotFoundMessage);
    return this.content(file.model, file.file.fileName, 'model/stl');
  }

  /** The preview PNG of one processed file. */
  async preview(userId: string, deviceId: string, versionId: string, fileId: string): Promise<StoredContent> {
    const file = await this.file(userId, deviceId, versionId, fileId);
    if (!file.preview) throw new ServiceError(404, 'not_found', fileNotFoundMessage);
    return this.content(file.preview, file.file.fileName.replace(stlFileNamePattern, '.png'), 'image/png');
  }

  /**
   * Deletes a version that has finished processing (a failed one, or a ready one no room places): admins and members
   * of the workspace, and only when they may manage every project the version is on (it leaves those projects).
   * The stored STL files and previews are removed from storage after the rows (docs/decisions/device-versions.md).
   */
  async remove(userId: string, deviceId: string, versionId: string): Promise<void> {
    authorize('project.create', await this.grant(userId, deviceId));
    const found = await this.deps.repository.find(deviceId, versionId);
    if (!found) throw new ServiceError(404, 'device_version_not_found', deviceVersionNotFoundMessage);
    const projectIds = await this.deps.repository.projectIdsOf(versionId);
    for (const projectId of projectIds)
      await this.deps.projectAccess.require('project.manage', userId, deviceId, projectId);
    const removal = await this.deps.unitOfWork.run(async (tx) => {
      const outcome = await tx.deviceVersions.remove(deviceId, versionId);
      if (outcome.outcome === 'removed')
        tx.events.record({
          ...workspaceEvent(userId, deviceId, 'device_version.deleted', { type: 'device_version', id: versionId }),
          before: { name: found.version.name, status: found.version.status, projectIds },
        });
      return outcome;
    });
    if (removal.outcome === 'not_found')
      throw new ServiceError(404, 'device_version_not_found', deviceVersionNotFoundMessage);
    if (removal.outcome === 'processing')
      throw new ServiceError(409, 'device_version_processing', deviceVersionProcessingDeleteMessage);
    if (removal.outcome === 'in_rooms')
      throw new ServiceError(409, 'device_version_in_rooms', deviceVersionInRoomsMessage(removal.rooms));
    await this.removeStored(removal.stored);
  }

  /** Adds a ready version to a project (project.manage). */
  async addToProject(userId: string, deviceId: string, projectId: string, versionId: string): Promise<DeviceVersion> {
    await this.deps.projectAccess.require('project.manage', userId, deviceId, projectId);
    const found = await this.deps.repository.find(deviceId, versionId);
    if (!found) throw new ServiceError(404, 'device_version_not_found', deviceVersionNotFoundMessage);
    if (found.version.status !== 'ready') throw new ServiceError(409, 'device_version_not_ready', notReadyMessage);
    const linked = await this.deps.unitOfWork.run(async (tx) => {
      const added = await tx.deviceVersions.link(projectId, versionId, userId);
      if (added)
        tx.events.record({
          ...projectEvent(userId, deviceId, projectId, 'project.version_added', {
            type: 'device_version',
            id: versionId,
          }),
          after: { name: found.version.name },
        });
      return added;
    });
    if (linked) await this.deps.joinedProject?.(projectId, versionId);
    return this.get(userId, deviceId, versionId);
  }

  async removeFromProject(userId: string, deviceId: string, projectId: string, versionId: string): Promise<void> {
    await this.deps.projectAccess.require('project.manage', userId, deviceId, projectId);
    const found = await this.deps.repository.find(deviceId, versionId);
    if (!found) throw new ServiceError(404, 'device_version_not_found', deviceVersionNotFoundMessage);
    const removal = await this.deps.unitOfWork.run(async (tx) => {
      const outcome = await tx.deviceVersions.unlink(projectId, versionId);
      if (outcome.outcome === 'removed')
        tx.events.record({
          ...projectEvent(userId, deviceId, projectId, 'project.version_removed', {
            type: 'device_version',
            id: versionId,
          }),
          before: { name: found.version.name },
        });
      return outcome;
    });
    if (removal.outcome === 'not_on_project') throw new ServiceError(404, 'not_on_project', notOnProjectMessage);
    if (removal.outcome === 'in_rooms')
      throw new ServiceError(409, 'device_version_in_rooms', versionInProjectRoomsMessage(removal.rooms));
  }

  /**
   * For the project-creation wizard (inside `POST .../projects`, after its own checks): every version joins the
   * new project — ready ones at once, processing ones when their processing ends. Versions of another
   * workspace or failed ones are skipped; answers the ids that joined or will join.
   */
  async joinNewProject(deviceId: string, projectId: string, versionIds: readonly string[], userId: string) {
    const joined: string[] = [];
    for (const versionId of versionIds) {
      const found = await this.deps.repository.find(deviceId, versionId);
      if (!found || found.version.status === 'failed') continue;
      // Target first: if processing ends meanwhile the conditional update fails and the version is linked here.
      if (!(await this.deps.repository.target(versionId, projectId))) {
        const now = await this.deps.repository.findById(versionId);
        if (now?.status !== 'ready') continue;
        await this.deps.repository.link(projectId, versionId, userId);
      }
      joined.push(versionId);
    }
    return joined;
  }

  /**
   * The processing job's work (idempotent): each file not yet judged is streamed through the STL validator, its
   * metrics stored and its preview written; then the version becomes ready (every file valid) or failed (the
   * spec §8 message, the reason on each refused file), joins its target project when ready, and the creator and
   * that project's team are told. A retried run skips judged files and posts no second notification.
   */
  async process(versionId: string, work: ProcessingWork): Promise<{ outcome: string }> {
    const version = await this.deps.repository.findById(versionId);
    if (!version) return { outcome: 'deleted' };
    if (version.status === 'processing') {
      const files = await this.deps.repository.files([versionId]);
      const totalBytes = files.reduce((sum, f) => sum + f.file.bytes, 0) || 1;
      let doneBytes = 0;
      for (const [index, entry] of files.entries()) {
        work.signal.throwIfAborted();
        const label = `Checking ${entry.file.fileName} (${index + 1} of ${files.length})`;
        if (entry.file.status === 'pending') {
          await work.progress(0.02 + (0.96 * doneBytes) / totalBytes, label);
          await this.processFile(version, entry, work, (read) => {
            // Progress is advisory: a failed write of it must not fail the file.
            work.progress(0.02 + (0.96 * (doneBytes + read)) / totalBytes, label).catch(() => undefined);
          });
        }
        doneBytes += entry.file.bytes;
      }
      const judged = await this.deps.repository.files([versionId]);
      const failed = judged.some((entry) => entry.file.status !== 'valid');
      await this.finish(versionId, failed ? 'failed' : 'ready', failed ? deviceVersionFailedMessage : null);
    }
    const finished = await this.deps.repository.findById(versionId);
    if (!finished || finished.status === 'processing') return { outcome: 'unfinished' };
    await work.progress(1, finished.status === 'ready' ? 'Ready' : 'Failed');
    // The version joined its target project in finish()'s transaction; device CI re-runs trials on it (idempotent:
    // a trial is re-run on a version once, so a retried job may call it again).
    if (finished.status === 'ready' && finished.targetProjectId)
      await this.deps.joinedProject?.(finished.targetProjectId, finished.id);
    return { outcome: finished.status };
  }

  /** The job gave up (an unexpected error on its last attempt): the version fails with the spec's message. */
  async failProcessing(versionId: string): Promise<void> {
    await this.finish(versionId, 'failed', deviceVersionFailedMessage);
  }

  /**
   * Ends processing once: the state, the target project joined when ready, and the event (the system, for the
   * creator) commit together; the creator and the target project's team hear of it from the event
   * (services/job-notifications.ts). A version that ended already changes nothing.
   */
  private async finish(versionId: string, status: 'ready' | 'failed', error: string | null): Promise<void> {
    await this.deps.unitOfWork.run(async (tx) => {
      const done = await tx.deviceVersions.finish(versionId, status, error);
      if (!done) return;
      const joined =
        status === 'ready' && done.targetProjectId
          ? await tx.deviceVersions.link(done.targetProjectId, done.id, done.createdBy)
          : false;
      const action = status === 'ready' ? 'device_version.processed' : 'device_version.failed';
      tx.events.record({
        ...systemEvent(
          done.createdBy,
          done.deviceId,
          null,
          action,
          { type: 'device_version', id: done.id },
          { name: done.name, status, error, targetProjectId: done.targetProjectId, addedToProject: joined },
        ),
        before: { status: 'processing' },
      });
    });
  }

  private async processFile(
    version: { id: string; deviceId: string; createdBy: string | null },
    entry: DeviceVersionFileWithStorage,
    work: ProcessingWork,
    onBytes: (read: number) => void,
  ): Promise<void> {
    const model = entry.model;
    const result = model
      ? await withLocalFile(this.deps.blobs, model.region, model.storageKey, async (local) =>
          local
            ? this.deps.cpu.run(processStlFileTask, local, {
                signal: work.signal,
                onProgress: (fraction) => onBytes(fraction * local.bytes),
              })
            : null,
        )
      : null;
    if (!model || !result) {
      await this.deps.repository.markFileRefused(entry.file.id, {
        code: 'missing',
        message: 'The uploaded file could not be found in storage.',
      });
      return;
    }
    if (!result.ok) {
      await this.deps.repository.markFileRefused(entry.file.id, result.refusal);
      return;
    }
    const key = `device-versions/${version.deviceId}/${version.id}/${entry.file.id}-preview.png`;
    await this.deps.blobs.put(model.region, key, result.previewPng);
    const previewFileId = await this.deps.repository.storePreview(
      { id: entry.file.id, deviceId: version.deviceId, region: model.region, uploadedBy: version.createdBy },
      key,
      result.previewPng.length,
      previewSize,
    );
    await this.deps.repository.markFileValid(entry.file.id, {
      format: result.format,
      metrics: { ...result.metrics, findings: result.findings },
      previewFileId,
    });
  }

  private async file(userId: string, deviceId: string, versionId: string, fileId: string) {
    await this.readable(userId, deviceId, versionId);
    const file = (await this.deps.repository.files([versionId])).find((entry) => entry.file.id === fileId);
    if (!file) throw new ServiceError(404, 'not_found', fileNotFoundMessage);
    return file;
  }

  private async content(
    stored: { id: string; region: DataRegion; storageKey: string; bytes: number },
    fileName: string,
    contentType: string,
  ): Promise<StoredContent> {
    const opened = await this.deps.blobs.open(stored.region, stored.storageKey);
    if (!opened) throw new ServiceError(404, 'not_found', fileNotFoundMessage);
    return { stream: opened.stream, bytes: opened.bytes, contentType, fileName, etag: `"${stored.id}"` };
  }

  /** A version the caller may read: everybody of the workspace, guests only their projects' ones (404 else). */
  private async readable(userId: string, deviceId: string, versionId: string) {
    const grant = await this.grant(userId, deviceId);
    authorize('workspace.view', grant);
    const guestUserId = grant.role === 'guest' ? userId : null;
    const row = await this.deps.repository.find(deviceId, versionId, guestUserId);
    if (!row) throw new ServiceError(404, 'device_version_not_found', deviceVersionNotFoundMessage);
    return { row, guestUserId };
  }

  private async present(
    deviceId: string,
    rows: readonly DeviceVersionListRow[],
    guestUserId: string | null,
  ): Promise<DeviceVersion[]> {
    const ids = rows.map((row) => row.version.id);
    const [files, projects] = await Promise.all([
      this.deps.repository.files(ids),
      this.deps.repository.projectsOf(ids, guestUserId),
    ]);
    return rows.map((row) => toDeviceVersion(deviceId, row, files, projects));
  }

  private async removeStored(files: { region: DataRegion; storageKey: string }[]): Promise<void> {
    for (const file of files) await this.deps.blobs.delete(file.region, file.storageKey);
  }

  private async grant(userId: string, deviceId: string): Promise<WorkspaceGrant | null> {
    return await callerGrant(userId, deviceId, (device, user) => this.deps.devices.findMembership(device, user));
  }
}

/** API paths of a file's bytes (the web and the room scene fetch them). */
export const deviceVersionFileUrls = {
  model: (deviceId: string, versionId: string, fileId: string) =>
    pathOf(deviceVersionEndpoints.model, { deviceId, versionId, fileId }),
  preview: (deviceId: string, versionId: string, fileId: string) =>
    pathOf(deviceVersionEndpoints.preview, { deviceId, versionId, fileId }),
};

function toDeviceVersion(
  deviceId: string,
  row: DeviceVersionListRow,
  files: readonly DeviceVersionFileWithStorage[],
  projects: readonly { versionId: string; id: string; name: string }[],
): DeviceVersion {
  const { version } = row;
  const processing = version.status === 'processing' || version.status === 'uploading';
  return {
    id: version.id,
    deviceId: version.deviceId,
    name: version.name,
    description: version.description,
    status: version.status,
    progress: processing ? Math.min(1, Math.max(0, row.progress ?? 0)) : 1,
    progressMessage: processing ? row.progressMessage : null,
    error: version.error,
    files: files
      .filter((entry) => entry.file.versionId === version.id)
      .map(({ file, model, preview }) => {
        const { findings, ...metrics } = (file.metrics ?? {}) as Record<string, unknown> & { findings?: unknown };
        return {
          id: file.id,
          position: file.position,
          fileName: file.fileName,
          bytes: file.bytes,
          status: file.status,
          format: (file.format as 'binary' | 'ascii' | null) ?? null,
          metrics: file.metrics ? (metrics as DeviceVersion['files'][number]['metrics']) : null,
          findings: Array.isArray(findings) ? (findings as DeviceVersion['files'][number]['findings']) : [],
          refusal: file.refusal ?? null,
          modelUrl: model ? deviceVersionFileUrls.model(deviceId, version.id, file.id) : null,
          previewUrl: preview
            ? `${deviceVersionFileUrls.preview(deviceId, version.id, file.id)}?v=${preview.id}`
            : null,
        };
      }),
    createdBy: version.createdBy ? { id: version.createdBy, fullName: row.creatorName ?? '' } : null,
    createdAt: version.createdAt.toISOString(),
    processedAt: version.processedAt?.toISOString() ?? null,
    projects: projects.filter((p) => p.versionId === version.id).map(({ id, name }) => ({ id, name })),
    targetProjectId: processing ? version.targetProjectId : null,
  };
}
