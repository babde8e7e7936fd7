import type { DataRegion, DeviceVersionStatus } from '@insilico/contracts';
import { and, asc, count, desc, eq, exists, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Orm } from '../db/client';
import {
  deviceVersionFiles,
  deviceVersions,
  jobRuns,
  projectDeviceVersions,
  projectMembers,
  projects,
  roomPlacements,
  rooms,
  storedFiles,
  uploads,
  users,
} from '../db/schema';

export type DeviceVersionRow = typeof deviceVersions.$inferSelect;
export type DeviceVersionFileRow = typeof deviceVersionFiles.$inferSelect;
type StoredFileRow = typeof storedFiles.$inferSelect;

/** A version with its creator's name and its processing job's progress. */
export interface DeviceVersionListRow {
  version: DeviceVersionRow;
  creatorName: string | null;
  progress: number | null;
  progressMessage: string | null;
}

/** A file of a version with where its model and preview are stored. */
export interface DeviceVersionFileWithStorage {
  file: DeviceVersionFileRow;
  model: StoredFileRow | null;
  preview: StoredFileRow | null;
}

export interface DeviceVersionFilter {
  search: string;
  statuses: readonly DeviceVersionStatus[];
  /** A guest's id: only versions of (or on their way to) projects whose team they are on. Null: every version. */
  guestUserId: string | null;
  /** Only these versions (a chooser asking about the ones it holds as chosen); absent or empty: any. */
  ids?: readonly string[];
}

/** One upload taken over as a file of a new version. */
export interface TakenUpload {
  uploadId: string;
  fileName: string;
  bytes: number;
}

/** Thrown inside the creation transaction when an upload was claimed or removed meanwhile (rolls back). */
export class UploadGoneError extends Error {
  constructor(readonly uploadId: string) {
    super(`upload ${uploadId} is gone`);
    this.name = 'UploadGoneError';
  }
}

/** Why a version could not be removed, or the storage of its files once removed (to delete the bytes). */
export type VersionRemoval =
  | { outcome: 'not_found' }
  | { outcome: 'processing' }
  | { outcome: 'in_rooms'; rooms: { name: string; projectName: string }[] }
  | { outcome: 'removed'; stored: { region: DataRegion; storageKey: string }[] };

/** Device versions, their files and the projects using them. Every read by id names its workspace. */
export class DeviceVersionRepository {
  constructor(private readonly orm: Orm) {}

  async nameTaken(deviceId: string, name: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: deviceVersions.id })
      .from(deviceVersions)
      .where(and(eq(deviceVersions.deviceId, deviceId), sql`lower(${deviceVersions.name}) = lower(${name})`));
    return rows.length > 0;
  }

  /**
   * Creates the version (processing) and takes the uploads over in one transaction: each upload row is deleted
   * (the claim, so the expiry sweep cannot remove the bytes any more) and its bytes become the file's stored
   * model under the same storage key. Null when the name is taken; `UploadGoneError` when an upload vanished.
   */
  async create(
    version: { deviceId: string; name: string; description: string; createdBy: string; targetProjectId: string | null },
    files: readonly TakenUpload[],
  ): Promise<DeviceVersionRow | null> {
    return this.orm.transaction(async (tx) => {
      const [row] = await tx
        .insert(deviceVersions)
        .values({ ...version, status: 'processing' })
        .onConflictDoNothing()
        .returning();
      if (!row) return null;
      for (const [position, file] of files.entries()) {
        const [upload] = await tx.delete(uploads).where(eq(uploads.id, file.uploadId)).returning();
        if (!upload) throw new UploadGoneError(file.uploadId);
        const [stored] = await tx
          .insert(storedFiles)
          .values({
            deviceId: version.deviceId,
            uploadedBy: version.createdBy,
            purpose: 'device_version_model',
            region: upload.region,
            storageKey: upload.storageKey,
            contentType: 'model/stl',
            bytes: upload.length,
          })
          .returning();
        await tx.insert(deviceVersionFiles).values({
          versionId: row.id,
          position: position + 1,
          fileName: file.fileName,
          bytes: file.bytes,
          fileId: stored!.id,
        });
      }
      return row;
    });
  }

  async setJob(versionId: string, jobId: string): Promise<void> {
    await this.orm.update(deviceVersions).set({ jobId }).where(eq(deviceVersions.id, versionId));
  }

  /**
   * Removes a version of the workspace that has finished processing and is placed in no room, with its file rows,
   * project links and stored files' rows, in one transaction. The version row is locked first: a placement being
   * written meanwhile takes a key-share lock on it, so it either committed before our check or fails after us.
   */
  async remove(deviceId: string, versionId: string): Promise<VersionRemoval> {
    return this.orm.transaction(async (tx) => {
      const [version] = await tx
        .select({ status: deviceVersions.status })
        .from(deviceVersions)
        .where(and(eq(deviceVersions.deviceId, deviceId), eq(deviceVersions.id, versionId)))
        .for('update');
      if (!version) return { outcome: 'not_found' };
      if (version.status !== 'ready' && version.status !== 'failed') return { outcome: 'processing' };
      const placed = await tx
        .selectDistinct({ name: rooms.name, projectName: projects.name })
        .from(roomPlacements)
        .innerJoin(rooms, eq(rooms.id, roomPlacements.roomId))
        .innerJoin(projects, eq(projects.id, rooms.projectId))
        .where(eq(roomPlacements.versionId, versionId))
        .orderBy(asc(projects.name), asc(rooms.name));
      if (placed.length > 0) return { outcome: 'in_rooms', rooms: placed };
      return { outcome: 'removed', stored: await deleteWithFiles(tx, versionId) };
    });
  }

  /** The projects a version is on (any team). */
  async projectIdsOf(versionId: string): Promise<string[]> {
    const rows = await this.orm
      .select({ projectId: projectDeviceVersions.projectId })
      .from(projectDeviceVersions)
      .where(eq(projectDeviceVersions.versionId, versionId));
    return rows.map((row) => row.projectId);
  }

  /** A page of the workspace's versions, newest first, and how many match in all. */
  async list(
    deviceId: string,
    filter: DeviceVersionFilter,
    page: { offset: number; limit: number },
  ): Promise<{ rows: DeviceVersionListRow[]; total: number }> {
    const where = this.filterOf(deviceId, filter);
    const [rows, totals] = await Promise.all([
      this.selectWithCreator()
        .where(where)
        .orderBy(desc(deviceVersions.createdAt), asc(deviceVersions.name))
        .offset(page.offset)
        .limit(page.limit),
      this.orm.select({ total: count() }).from(deviceVersions).where(where),
    ]);
    return { rows, total: totals[0]?.total ?? 0 };
  }

  /** A version of the workspace (visible to the guest when one is named), or null. */
  async find(
    deviceId: string,
    versionId: string,
    guestUserId: string | null = null,
  ): Promise<DeviceVersionListRow | null> {
    const rows = await this.selectWithCreator().where(
      and(this.filterOf(deviceId, { search: '', statuses: [], guestUserId }), eq(deviceVersions.id, versionId)),
    );
    return rows[0] ?? null;
  }

  /** A version by id alone (the processing job). */
  async findById(versionId: string): Promise<DeviceVersionRow | null> {
    const rows = await this.orm.select().from(deviceVersions).where(eq(deviceVersions.id, versionId));
    return rows[0] ?? null;
  }

  /** The files of the versions in position order, with their stored model and preview. */
  async files(versionIds: readonly string[]): Promise<DeviceVersionFileWithStorage[]> {
    if (versionIds.length === 0) return [];
    const model = alias(storedFiles, 'model');
    const preview = alias(storedFiles, 'preview');
    return this.orm
      .select({ file: deviceVersionFiles, model, preview })
      .from(deviceVersionFiles)
      .leftJoin(model, eq(model.id, deviceVersionFiles.fileId))
      .leftJoin(preview, eq(preview.id, deviceVersionFiles.previewFileId))
      .where(inArray(deviceVersionFiles.versionId, [...versionIds]))
      .orderBy(asc(deviceVersionFiles.versionId), asc(deviceVersionFiles.position));
  }

  /** The projects using each version; for a guest only the projects whose team they are on. */
  async projectsOf(
    versionIds: readonly string[],
    guestUserId: string | null,
  ): Promise<{ versionId: string; id: string; name: string }[]> {
    if (versionIds.length === 0) return [];
    return this.orm
      .select({ versionId: projectDeviceVersions.versionId, id: projects.id, name: projects.name })
      .from(projectDeviceVersions)
      .innerJoin(projects, eq(projects.id, projectDeviceVersions.projectId))
      .where(
        and(
          inArray(projectDeviceVersions.versionId, [...versionIds]),
          guestUserId ? this.onTeam(projects.id, guestUserId) : undefined,
        ),
      )
      .orderBy(asc(projects.name));
  }

  /** Stores a file's preview (idempotent by storage key: a retried job finds the row it wrote before). */
  async storePreview(
    file: { id: string; deviceId: string; region: DataRegion; uploadedBy: string | null },
    storageKey: string,
    bytes: number,
    size: number,
  ): Promise<string> {
    const inserted = await this.orm
      .insert(storedFiles)
      .values({
        deviceId: file.deviceId,
        uploadedBy: file.uploadedBy,
        purpose: 'device_version_preview',
        region: file.region,
        storageKey,
        contentType: 'image/png',
        bytes,
        width: size,
        height: size,
      })
      .onConflictDoNothing()
      .returning({ id: storedFiles.id });
    const id =
      inserted[0]?.id ??
      (await this.orm.select({ id: storedFiles.id }).from(storedFiles).where(eq(storedFiles.storageKey, storageKey)))[0]
        ?.id;
    if (!id) throw new Error(`preview ${storageKey} could not be recorded`);
    return id;
  }

  async markFileValid(
    fileId: string,
    result: { format: string; metrics: Record<string, unknown>; previewFileId: string },
  ): Promise<void> {
    await this.orm
      .update(deviceVersionFiles)
      .set({ status: 'valid', refusal: null, ...result })
      .where(eq(deviceVersionFiles.id, fileId));
  }

  async markFileRefused(fileId: string, refusal: { code: string; message: string }): Promise<void> {
    await this.orm
      .update(deviceVersionFiles)
      .set({ status: 'refused', refusal })
      .where(eq(deviceVersionFiles.id, fileId));
  }

  /** Ends processing once: ready or failed. Null when it had ended already (a retried job reads it again). */
  async finish(versionId: string, status: 'ready' | 'failed', error: string | null): Promise<DeviceVersionRow | null> {
    const rows = await this.orm
      .update(deviceVersions)
      .set({ status, error, processedAt: sql`now()` })
      .where(and(eq(deviceVersions.id, versionId), eq(deviceVersions.status, 'processing')))
      .returning();
    return rows[0] ?? null;
  }

  /** Adds the version to the project; false when it was there already. */
  async link(projectId: string, versionId: string, addedBy: string | null): Promise<boolean> {
    const rows = await this.orm
      .insert(projectDeviceVersions)
      .values({ projectId, versionId, addedBy })
      .onConflictDoNothing()
      .returning({ versionId: projectDeviceVersions.versionId });
    return rows.length > 0;
  }

  /**
   * Takes the version off the project unless rooms of the project place it (their names are answered). The link
   * row is locked first, so a placement written meanwhile is either seen here or made after the removal.
   */
  async unlink(
    projectId: string,
    versionId: string,
  ): Promise<{ outcome: 'removed' } | { outcome: 'not_on_project' } | { outcome: 'in_rooms'; rooms: string[] }> {
    return this.orm.transaction(async (tx) => {
      const link = and(eq(projectDeviceVersions.projectId, projectId), eq(projectDeviceVersions.versionId, versionId));
      const [linked] = await tx
        .select({ id: projectDeviceVersions.versionId })
        .from(projectDeviceVersions)
        .where(link)
        .for('update');
      if (!linked) return { outcome: 'not_on_project' as const };
      const used = await tx
        .selectDistinct({ name: rooms.name })
        .from(roomPlacements)
        .innerJoin(rooms, eq(rooms.id, roomPlacements.roomId))
        .where(and(eq(rooms.projectId, projectId), eq(roomPlacements.versionId, versionId)))
        .orderBy(asc(rooms.name));
      if (used.length > 0) return { outcome: 'in_rooms' as const, rooms: used.map((room) => room.name) };
      await tx.delete(projectDeviceVersions).where(link);
      return { outcome: 'removed' as const };
    });
  }

  /**
   * Points a still-processing version at a project (it is linked when processing ends). Conditional on the
   * status, so a version that became ready meanwhile is not missed: the caller then links it directly.
   */
  async target(versionId: string, projectId: string): Promise<boolean> {
    const rows = await this.orm
      .update(deviceVersions)
      .set({ targetProjectId: projectId })
      .where(and(eq(deviceVersions.id, versionId), inArray(deviceVersions.status, ['uploading', 'processing'])))
      .returning({ id: deviceVersions.id });
    return rows.length > 0;
  }

  /** The team of a project (to notify). */
  async teamOf(projectId: string): Promise<string[]> {
    const rows = await this.orm
      .select({ userId: projectMembers.userId })
      .from(projectMembers)
      .where(eq(projectMembers.projectId, projectId));
    return rows.map((row) => row.userId);
  }

  private filterOf(deviceId: string, filter: DeviceVersionFilter): SQL | undefined {
    const search = filter.search.trim();
    return and(
      eq(deviceVersions.deviceId, deviceId),
      search === '' ? undefined : ilike(deviceVersions.name, `%${escapeLike(search)}%`),
      filter.statuses.length === 0 ? undefined : inArray(deviceVersions.status, [...filter.statuses]),
      filter.guestUserId ? this.visibleToGuest(filter.guestUserId) : undefined,
      filter.ids?.length ? inArray(deviceVersions.id, [...filter.ids]) : undefined,
    );
  }

  /** Linked to a project of the guest's, or on its way to one (processing for it). */
  private visibleToGuest(userId: string): SQL | undefined {
    return or(
      exists(
        this.orm
          .select({ one: sql`1` })
          .from(projectDeviceVersions)
          .where(
            and(
              eq(projectDeviceVersions.versionId, deviceVersions.id),
              this.onTeam(projectDeviceVersions.projectId, userId),
            ),
          ),
      ),
      this.onTeam(deviceVersions.targetProjectId, userId),
    );
  }

  private onTeam(projectId: AnyPgColumn, userId: string): SQL {
    return exists(
      this.orm
        .select({ one: sql`1` })
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId))),
    );
  }

  private selectWithCreator() {
    return this.orm
      .select({
        version: deviceVersions,
        creatorName: users.fullName,
        progress: jobRuns.progress,
        progressMessage: jobRuns.progressMessage,
      })
      .from(deviceVersions)
      .leftJoin(users, eq(users.id, deviceVersions.createdBy))
      .leftJoin(jobRuns, eq(jobRuns.id, deviceVersions.jobId))
      .$dynamic();
  }
}

/**
 * Deletes a version (its file rows and project links cascade) and its stored files' rows, inside the caller's
 * transaction; answers where those files' bytes are, for the caller to delete after the commit.
 */
async function deleteWithFiles(tx: Orm, versionId: string): Promise<{ region: DataRegion; storageKey: string }[]> {
  const files = await tx
    .select({ model: deviceVersionFiles.fileId, preview: deviceVersionFiles.previewFileId })
    .from(deviceVersionFiles)
    .where(eq(deviceVersionFiles.versionId, versionId));
  const ids = files.flatMap((file) => [file.model, file.preview]).filter((id): id is string => id !== null);
  await tx.delete(deviceVersions).where(eq(deviceVersions.id, versionId));
  if (ids.length === 0) return [];
  return tx
    .delete(storedFiles)
    .where(inArray(storedFiles.id, ids))
    .returning({ region: storedFiles.region, storageKey: storedFiles.storageKey });
}

/** `%`, `_` and `\` typed in a search are literal. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
