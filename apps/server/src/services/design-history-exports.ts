import {
  designHistoryExportExpiredMessage,
  designHistoryExportNotFoundMessage,
  designHistoryExportRetentionDays,
  designHistoryFileFormats,
  type DataRegion,
  type DesignHistoryExport,
  type DesignHistoryExportList,
  type DesignHistoryFileRequest,
} from '@insilico/contracts';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { projectEvent, systemEvent, workspaceEvent } from '../events/kinds';
import { designHistoryExportFilePath, designHistoryExportJob } from '../jobs/design-history-export.job';
import type { BlobStore } from '../repositories/blob.repository';
import type { DesignHistoryExportRow, DesignHistoryRepository } from '../repositories/design-history.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import type { UserRow } from '../repositories/user.repository';
import type { DesignHistoryService } from './design-history.service';
import { exportedAction } from './design-history-sections';
import { ServiceError } from './errors';

/**
 * Up to this size a design history file is made in the request; above it, by a job. Measured (docs/benchmarks.md
 * "Design history file", under load): about 1 ms of PDF layout per item, and about 0.15 s per MiB of kept results in
 * the ZIP; at both limits the file takes under a second of CPU-pool work (docs/decisions/design-history-export-job.md).
 */
export const directExportLimits = {
  /** Items of the timeline (events and entries) in the file. */
  items: 300,
  /** Bytes of kept results (their JSON) an evidence ZIP would carry. */
  snapshotBytes: 2 * 1024 * 1024,
} as const;

/** Whether an export of this size is answered in the request or made by a job. */
export function exportDelivery(size: { items: number; snapshotBytes: number }): 'direct' | 'job' {
  return size.items <= directExportLimits.items && size.snapshotBytes <= directExportLimits.snapshotBytes
    ? 'direct'
    : 'job';
}

export const exportQueuedAction = 'design_history.export_queued';
export const exportFailedAction = 'design_history.export_failed';

const dayMs = 24 * 60 * 60 * 1000;

function present(row: DesignHistoryExportRow): DesignHistoryExport {
  return {
    id: row.id,
    projectId: row.projectId,
    format: designHistoryFileFormats.find((format) => format === row.format) ?? 'pdf',
    status: row.status,
    requestedAt: row.createdAt.toISOString(),
    fileName: row.fileName,
    bytes: row.bytes,
    sha256: row.sha256,
    error: row.error,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    download: row.status === 'ready' ? designHistoryExportFilePath(row.deviceId, row.id) : null,
  };
}

/**
 * Delivery of the design history file (issue 20 item 6): a small history's file is answered in the request as
 * before; a large one is made by a durable job (design-history-export.job.ts) in the CPU pool, stored in the
 * workspace's region, recorded with its SHA-256 (`design_history.exported`, on behalf of the requester, who is
 * notified), downloaded by its requester only while they may still read what it holds, and removed after
 * `designHistoryExportRetentionDays`.
 */
export class DesignHistoryExportService {
  constructor(
    private readonly deps: {
      unitOfWork: UnitOfWork;
      repository: DesignHistoryRepository;
      designHistory: Pick<DesignHistoryService, 'exportSize' | 'exportFile' | 'makeFile'>;
      devices: Pick<DeviceRepository, 'findById'>;
      users: { findById(id: string): Promise<UserRow | null> };
      blobs: BlobStore;
      /** The size above which files are made by a job (tests lower it). */
      delivery?: typeof exportDelivery;
    },
  ) {}

  /**
   * The file at once (small), or the queued export (large): its row, its job and `design_history.export_queued`
   * commit together. Refused as the export is (404 for a project outside the caller's scope).
   */
  async request(
    user: UserRow,
    deviceId: string,
    request: DesignHistoryFileRequest,
  ): Promise<
    | { kind: 'file'; file: { bytes: Uint8Array; fileName: string; sha256: string } }
    | { kind: 'queued'; export: DesignHistoryExport }
  > {
    const size = await this.deps.designHistory.exportSize(user, deviceId, request, directExportLimits.items);
    if ((this.deps.delivery ?? exportDelivery)(size) === 'direct')
      return { kind: 'file', file: await this.deps.designHistory.exportFile(user, deviceId, request) };
    const region: DataRegion = (await this.deps.devices.findById(deviceId))?.dataRegion ?? 'eu';
    const id = randomUUID();
    const row = await this.deps.unitOfWork.run(async (tx) => {
      const inserted = await tx.designHistory.insertExport({
        id,
        deviceId,
        projectId: request.projectId ?? null,
        format: request.format,
        requestedBy: user.id,
        region,
        storageKey: `design-history/${deviceId}/exports/${id}.${request.format}`,
      });
      const object = { type: 'design_history_export', id };
      tx.events.record({
        ...(request.projectId
          ? projectEvent(user.id, deviceId, request.projectId, exportQueuedAction, object)
          : workspaceEvent(user.id, deviceId, exportQueuedAction, object)),
        after: { format: request.format, exportId: id, itemsAtLeast: size.items },
      });
      await tx.jobs.enqueue(designHistoryExportJob, { exportId: id }, user.id);
      return inserted;
    });
    return { kind: 'queued', export: present(row) };
  }

  /**
   * The export job: makes the file of the requester's scope as it stands (dated at the request), stores it, and
   * records it ready with `design_history.exported` (its SHA-256) in one unit of work. An export no longer queued
   * is left as it is; a retry after a crash before the commit makes and stores the file again.
   */
  async build(exportId: string): Promise<{ status: string }> {
    const row = await this.deps.repository.exportById(exportId);
    if (!row) return { status: 'deleted' };
    if (row.status !== 'queued') return { status: row.status };
    const user = await this.deps.users.findById(row.requestedBy);
    if (!user) throw new Error('The person who asked for this export no longer exists.');
    // Written into storage as it is made (`putFrom`: a failed file leaves nothing under the key).
    const file = await this.deps.designHistory.makeFile(
      user,
      row.deviceId,
      { format: row.format === 'zip' ? 'zip' : 'pdf', ...(row.projectId ? { projectId: row.projectId } : {}) },
      row.createdAt,
      (source) => this.deps.blobs.putFrom(row.region as DataRegion, row.storageKey, source, Number.MAX_SAFE_INTEGER),
    );
    const finishedAt = new Date();
    await this.deps.unitOfWork.run(async (tx) => {
      const ready = await tx.designHistory.finishExport(exportId, {
        status: 'ready',
        fileName: file.fileName,
        bytes: file.bytes,
        sha256: file.sha256,
        finishedAt,
        expiresAt: new Date(finishedAt.getTime() + designHistoryExportRetentionDays * dayMs),
      });
      if (!ready) return;
      tx.events.record(
        systemEvent(
          row.requestedBy,
          row.deviceId,
          row.projectId,
          exportedAction,
          row.projectId ? { type: 'project', id: row.projectId } : { type: 'device', id: row.deviceId },
          { ...file.recorded, exportId, name: file.fileName },
        ),
      );
    });
    return { status: 'ready' };
  }

  /** The job gave up: the export says why (and its requester is told) instead of staying queued. */
  async failed(exportId: string, reason: string): Promise<void> {
    await this.deps.unitOfWork.run(async (tx) => {
      const row = await tx.designHistory.finishExport(exportId, {
        status: 'failed',
        error: `The file could not be made: ${reason}`,
        finishedAt: new Date(),
      });
      if (!row) return;
      tx.events.record(
        systemEvent(
          row.requestedBy,
          row.deviceId,
          row.projectId,
          exportFailedAction,
          { type: 'design_history_export', id: exportId },
          { exportId, format: row.format, error: row.error },
        ),
      );
    });
  }

  /** The caller's exports in this workspace, newest first (the design history page shows them). */
  async list(userId: string, deviceId: string): Promise<DesignHistoryExportList> {
    return { items: (await this.deps.repository.exportsOf(userId, deviceId, 10)).map(present) };
  }

  /**
   * A ready export's file, for its requester only (anyone else: 404), and only while they may still read the design
   * history it holds — the export's own permission, checked again. A removed file answers 410.
   */
  async download(
    user: UserRow,
    deviceId: string,
    exportId: string,
  ): Promise<{ stream: Readable; bytes: number; fileName: string; sha256: string; format: string }> {
    const row = await this.deps.repository.exportById(exportId);
    if (!row || row.deviceId !== deviceId || row.requestedBy !== user.id)
      throw new ServiceError(404, 'export_not_found', designHistoryExportNotFoundMessage);
    const format = row.format === 'zip' ? 'zip' : 'pdf';
    await this.deps.designHistory.exportSize(
      user,
      deviceId,
      { format: 'pdf', ...(row.projectId ? { projectId: row.projectId } : {}) },
      0,
    );
    if (row.status === 'expired') throw new ServiceError(410, 'export_expired', designHistoryExportExpiredMessage);
    if (row.status !== 'ready' || !row.fileName || !row.sha256)
      throw new ServiceError(409, 'export_not_ready', 'This file is not ready yet.');
    // Streamed: an evidence ZIP carries its attached files (gigabytes).
    const file = await this.deps.blobs.open(row.region as DataRegion, row.storageKey);
    if (!file) throw new Error(`The file of export ${row.id} is missing from storage (${row.storageKey}).`);
    return { ...file, fileName: row.fileName, sha256: row.sha256, format };
  }

  /** Removes the files of exports past their retention; their rows stay (status expired), as the trail's events do. */
  async expire(now: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const rows = await this.deps.repository.expiredExports(now, 100);
      for (const row of rows) {
        await this.deps.blobs.delete(row.region as DataRegion, row.storageKey);
        await this.deps.repository.markExpired(row.id);
        removed += 1;
      }
      if (rows.length < 100) return removed;
    }
  }
}
