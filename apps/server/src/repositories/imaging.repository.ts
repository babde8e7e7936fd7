import type { ImagingFinding, ImagingManifest } from '@insilico/contracts';
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { devices, imagingDatasets, jobRuns, uploads, users } from '../db/schema';
import { UploadGoneError } from './device-version.repository';

export type ImagingDatasetRow = typeof imagingDatasets.$inferSelect;

export interface ImagingDatasetWithUploader {
  dataset: ImagingDatasetRow;
  uploader: { id: string; name: string } | null;
  /** who delivered the patient models (support staff), if anyone did */
  deliverer: { id: string; name: string } | null;
}

export interface ImagingQueueRow extends ImagingDatasetWithUploader {
  workspace: { id: string; name: string };
}

/** A delivery of patient models as its check job's row holds it (the latest per dataset). */
export interface ImagingDeliveryRun {
  datasetId: string;
  jobStatus: (typeof jobRuns.$inferSelect)['status'];
  progress: number;
  progressMessage: string | null;
  result: unknown;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface NewImagingDataset {
  deviceId: string;
  projectId: string | null;
  name: string;
  note: string;
  uploadedBy: string;
  uploadId: string;
}

/** Imaging datasets (issue 19): rows only; the zip's bytes stay in the blob store under the upload's key. */
export class ImagingRepository {
  constructor(private readonly orm: Orm) {}

  /**
   * Takes a finished upload over (its row deleted, the bytes stay under the same storage key: no copy) and records
   * the dataset, in the caller's transaction. Throws UploadGoneError when the upload was claimed or removed meanwhile.
   */
  async createFromUpload(input: NewImagingDataset): Promise<ImagingDatasetRow> {
    const taken = await this.orm
      .delete(uploads)
      .where(and(eq(uploads.id, input.uploadId), eq(uploads.deviceId, input.deviceId)))
      .returning();
    const upload = taken[0];
    if (!upload) throw new UploadGoneError(input.uploadId);
    const rows = await this.orm
      .insert(imagingDatasets)
      .values({
        deviceId: input.deviceId,
        projectId: input.projectId,
        name: input.name,
        note: input.note,
        uploadedBy: input.uploadedBy,
        region: upload.region,
        storageKey: upload.storageKey,
        bytes: upload.length,
      })
      .returning();
    return rows[0]!;
  }

  async setJob(datasetId: string, jobId: string): Promise<void> {
    await this.orm.update(imagingDatasets).set({ jobId }).where(eq(imagingDatasets.id, datasetId));
  }

  async find(datasetId: string): Promise<ImagingDatasetRow | null> {
    const rows = await this.orm.select().from(imagingDatasets).where(eq(imagingDatasets.id, datasetId));
    return rows[0] ?? null;
  }

  async findWithUploader(deviceId: string, datasetId: string): Promise<ImagingDatasetWithUploader | null> {
    const rows = await this.selectWithUploader().where(
      and(eq(imagingDatasets.deviceId, deviceId), eq(imagingDatasets.id, datasetId)),
    );
    return rows[0] ?? null;
  }

  async list(deviceId: string): Promise<ImagingDatasetWithUploader[]> {
    return this.selectWithUploader()
      .where(eq(imagingDatasets.deviceId, deviceId))
      .orderBy(desc(imagingDatasets.createdAt), desc(imagingDatasets.id));
  }

  /** The imaging cohorts of a project (accepted datasets: modelling or ready), by name. */
  async projectDatasets(projectId: string): Promise<ImagingDatasetRow[]> {
    return this.orm
      .select()
      .from(imagingDatasets)
      .where(and(eq(imagingDatasets.projectId, projectId), inArray(imagingDatasets.status, ['modelling', 'ready'])))
      .orderBy(imagingDatasets.name, imagingDatasets.id);
  }

  /** One imaging cohort of the project (any status), or null. */
  async findInProject(projectId: string, datasetId: string): Promise<ImagingDatasetRow | null> {
    const rows = await this.orm
      .select()
      .from(imagingDatasets)
      .where(and(eq(imagingDatasets.projectId, projectId), eq(imagingDatasets.id, datasetId)));
    return rows[0] ?? null;
  }

  /**
   * Links datasets to a new project (the wizard's uploads, issue 19), in the caller's transaction: only datasets
   * of this workspace uploaded by this user, in no project yet and not refused. Answers how many were linked.
   */
  async attachToProject(deviceId: string, userId: string, datasetIds: string[], projectId: string): Promise<number> {
    if (datasetIds.length === 0) return 0;
    const rows = await this.orm
      .update(imagingDatasets)
      .set({ projectId })
      .where(
        and(
          eq(imagingDatasets.deviceId, deviceId),
          eq(imagingDatasets.uploadedBy, userId),
          inArray(imagingDatasets.id, datasetIds),
          isNull(imagingDatasets.projectId),
          ne(imagingDatasets.status, 'refused'),
        ),
      )
      .returning({ id: imagingDatasets.id });
    return rows.length;
  }

  /** The outcome of the server's re-check; only a dataset still being checked changes (a retry sets it once). */
  async markChecked(
    datasetId: string,
    outcome:
      | {
          accepted: true;
          manifest: ImagingManifest;
          counts: { patients: number; studies: number; series: number; files: number };
        }
      | { accepted: false; findings: ImagingFinding[]; manifest: ImagingManifest | null },
  ): Promise<boolean> {
    const rows = await this.orm
      .update(imagingDatasets)
      .set(
        outcome.accepted
          ? { status: 'modelling', manifest: outcome.manifest, findings: [], ...outcome.counts, checkedAt: sql`now()` }
          : { status: 'refused', manifest: outcome.manifest, findings: outcome.findings, checkedAt: sql`now()` },
      )
      .where(and(eq(imagingDatasets.id, datasetId), eq(imagingDatasets.status, 'checking')))
      .returning({ id: imagingDatasets.id });
    // False when it was checked already (a retried job changes nothing).
    return rows.length > 0;
  }

  /** The support staff's queue: datasets of every workspace in a status, the longest waiting first. */
  async queue(status: 'modelling' | 'ready'): Promise<ImagingQueueRow[]> {
    return this.selectQueue()
      .where(eq(imagingDatasets.status, status))
      .orderBy(imagingDatasets.createdAt, imagingDatasets.id);
  }

  async findInQueue(datasetId: string): Promise<ImagingQueueRow | null> {
    const rows = await this.selectQueue().where(eq(imagingDatasets.id, datasetId));
    return rows[0] ?? null;
  }

  /**
   * Records the delivered patient models and makes the dataset ready, once: only a dataset in modelling changes
   * (false otherwise: delivered meanwhile, or not accepted).
   */
  async deliverModels(
    datasetId: string,
    delivery: { models: NonNullable<ImagingDatasetRow['models']>; storageKey: string; deliveredBy: string },
  ): Promise<boolean> {
    const rows = await this.orm
      .update(imagingDatasets)
      .set({
        status: 'ready',
        models: delivery.models,
        modelsStorageKey: delivery.storageKey,
        modelsDeliveredBy: delivery.deliveredBy,
        readyAt: sql`now()`,
      })
      .where(and(eq(imagingDatasets.id, datasetId), eq(imagingDatasets.status, 'modelling')))
      .returning({ id: imagingDatasets.id });
    return rows.length === 1;
  }

  /**
   * Of these models zips' keys, those still wanted: the delivered models of a dataset, or the zip of a delivery
   * whose check job (of `kind`) is queued or running.
   */
  async wantedModels(kind: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const storageKey = sql<string>`${jobRuns.data}->>'storageKey'`;
    const [delivered, checking] = await Promise.all([
      this.orm
        .select({ key: imagingDatasets.modelsStorageKey })
        .from(imagingDatasets)
        .where(inArray(imagingDatasets.modelsStorageKey, keys)),
      this.orm
        .select({ key: storageKey })
        .from(jobRuns)
        .where(and(eq(jobRuns.kind, kind), inArray(jobRuns.status, ['queued', 'running']), inArray(storageKey, keys))),
    ]);
    return new Set([...delivered, ...checking].flatMap((row) => (row.key ? [row.key] : [])));
  }

  /** The latest delivery of models of each dataset (its check job, of `kind`), keyed by dataset. */
  async latestDeliveries(kind: string, datasetIds: string[]): Promise<Map<string, ImagingDeliveryRun>> {
    if (datasetIds.length === 0) return new Map();
    const datasetId = sql<string>`${jobRuns.data}->>'datasetId'`;
    const rows = await this.orm
      .selectDistinctOn([datasetId], {
        datasetId,
        jobStatus: jobRuns.status,
        progress: jobRuns.progress,
        progressMessage: jobRuns.progressMessage,
        result: jobRuns.result,
        createdAt: jobRuns.createdAt,
        finishedAt: jobRuns.finishedAt,
      })
      .from(jobRuns)
      .where(and(eq(jobRuns.kind, kind), inArray(datasetId, datasetIds)))
      .orderBy(datasetId, desc(jobRuns.createdAt), desc(jobRuns.id));
    return new Map(rows.map((row) => [row.datasetId, row]));
  }

  private selectQueue() {
    return this.orm
      .select({
        dataset: imagingDatasets,
        uploader: this.uploaderJson(),
        deliverer: this.delivererJson(),
        workspace: sql<{ id: string; name: string }>`json_build_object('id', ${devices.id}, 'name', ${devices.name})`,
      })
      .from(imagingDatasets)
      .innerJoin(devices, eq(devices.id, imagingDatasets.deviceId))
      .leftJoin(users, eq(users.id, imagingDatasets.uploadedBy))
      .$dynamic();
  }

  private uploaderJson() {
    return sql<{
      id: string;
      name: string;
    } | null>`case when ${users.id} is null then null else json_build_object('id', ${users.id}, 'name', ${users.fullName}) end`;
  }

  private delivererJson() {
    return sql<{
      id: string;
      name: string;
    } | null>`(select json_build_object('id', d.id, 'name', d.full_name) from users d where d.id = ${imagingDatasets.modelsDeliveredBy})`;
  }

  private selectWithUploader() {
    return this.orm
      .select({
        dataset: imagingDatasets,
        uploader: this.uploaderJson(),
        deliverer: this.delivererJson(),
      })
      .from(imagingDatasets)
      .leftJoin(users, eq(users.id, imagingDatasets.uploadedBy))
      .$dynamic();
  }
}
