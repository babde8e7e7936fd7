import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  dataRegions,
  imagingDatasetNotFoundMessage,
  imagingDatasetNotModellingMessage,
  imagingModelsDeliveryFailedMessage,
  imagingModelsDeliveryPendingMessage,
  type ImagingFinding,
  type ImagingModelsDeliveryState,
  imagingModelsMaxBytes,
  imagingModelsTooLargeMessage,
  type ImagingModelsDelivery,
  type ImagingQueue,
  type ImagingQueueItem,
} from '@insilico/contracts';
import type { CpuRunner } from '../cpu/pool';
import { imagingModelsTask } from '../cpu/imaging-models.task';
import { imagingModelsJob, type ImagingModelsData } from '../jobs/imaging-models.job';
import { maySupport } from '../policies/support.policy';
import { BlobLimitError, withLocalFile, type BlobStore, type StoredBlob } from '../repositories/blob.repository';
import type { ImagingDeliveryRun, ImagingQueueRow, ImagingRepository } from '../repositories/imaging.repository';
import type { SupportRepository } from '../repositories/support.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { systemEvent, workspaceEvent } from '../events/kinds';
import { ServiceError } from './errors';
import { present } from './imaging.service';

export const imagingQueueRefusal = 'The modelling queue is for support staff only.';

/** Where delivered models lie: `imaging-models/<dataset>/<delivery>.zip`, meshes made from them under `<delivery>/`. */
const imagingModelsPrefix = 'imaging-models';

/** How long a models file no delivery wants is left alone (the store-then-queue window, generously). */
export const imagingModelsGraceMs = 60 * 60_000;

/** The zip of the delivery a models file belongs to, or null for a key of another shape. */
export function deliveryZipOf(key: string): string | null {
  const match = /^imaging-models\/([0-9a-f-]{36})\/([0-9a-f-]{36})(?:\.zip(?:\.[0-9a-f-]{36}\.part)?|\/.+)$/.exec(key);
  return match ? `${imagingModelsPrefix}/${match[1]}/${match[2]}.zip` : null;
}

export interface ImagingQueueServiceDeps {
  repository: ImagingRepository;
  support: SupportRepository;
  blobs: BlobStore;
  cpu: CpuRunner;
  unitOfWork: UnitOfWork;
}

/** What the delivery job answers (its `job_runs.result`). */
export interface DeliveryOutcome {
  accepted: boolean;
  findings: ImagingFinding[];
}

const refused = (findings: ImagingFinding[]): DeliveryOutcome => ({ accepted: false, findings });

const pending = (): ServiceError =>
  new ServiceError(409, 'imaging_delivery_pending', imagingModelsDeliveryPendingMessage);

/** A delivery as the staff's queue shows it, from its job's row. */
function deliveryState(run: ImagingDeliveryRun): ImagingModelsDeliveryState {
  const outcome = run.result as Partial<DeliveryOutcome> | null;
  const common = {
    submittedAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
  switch (run.jobStatus) {
    case 'queued':
    case 'running':
      return {
        status: 'pending',
        progress: run.progress,
        progressMessage: run.progressMessage,
        findings: [],
        ...common,
      };
    case 'completed':
      return outcome?.accepted
        ? { status: 'accepted', progress: 1, progressMessage: null, findings: [], ...common }
        : { status: 'refused', progress: 1, progressMessage: null, findings: outcome?.findings ?? [], ...common };
    case 'failed':
    case 'cancelled':
      return {
        status: 'failed',
        progress: run.progress,
        progressMessage: imagingModelsDeliveryFailedMessage,
        findings: [],
        ...common,
      };
  }
}

/**
 * The support staff's side of imaging cohorts (issue 19 item 7): the queue of de-identified datasets waiting for
 * patient models (every workspace), the dataset's zip to download, and the delivery of the models — a .zip stored
 * and checked by a durable job in the CPU pool (closed surfaces per organ and phase, landmarks per patient), after
 * which the dataset is ready and its uploader is told (from the event). Support staff only (403 for anybody else,
 * like the support inbox).
 */
export class ImagingQueueService {
  constructor(private readonly deps: ImagingQueueServiceDeps) {}

  async queue(userId: string, status: 'modelling' | 'ready'): Promise<ImagingQueue> {
    await this.authorize(userId);
    return { items: await this.withDeliveries(await this.deps.repository.queue(status)) };
  }

  /** The dataset's zip as uploaded (de-identified and re-checked), streamed from its data region. */
  async download(userId: string, datasetId: string): Promise<{ stream: Readable; bytes: number; name: string }> {
    await this.authorize(userId);
    const row = await this.deps.repository.findInQueue(datasetId);
    if (!row || (row.dataset.status !== 'modelling' && row.dataset.status !== 'ready')) throw notFound();
    const opened = await this.deps.blobs.open(row.dataset.region, row.dataset.storageKey);
    if (!opened) throw notFound();
    return { ...opened, name: `imaging-dataset-${row.dataset.id}.zip` };
  }

  /**
   * Stores the models zip beside the dataset (same data region) and queues its check as a durable job, with the
   * staff's `imaging.models_submitted` event, in one unit of work; answers at once (202) with the delivery pending.
   * The job (imaging-models.performer.ts, `checkDelivery`) makes the dataset ready or refuses the models.
   */
  async deliverModels(
    userId: string,
    datasetId: string,
    body: AsyncIterable<Uint8Array>,
  ): Promise<ImagingModelsDelivery> {
    await this.authorize(userId);
    const row = await this.deps.repository.findInQueue(datasetId);
    if (!row) throw notFound();
    if (row.dataset.status !== 'modelling')
      throw new ServiceError(409, 'imaging_not_modelling', imagingDatasetNotModellingMessage);
    if ((await this.deliveryOf(datasetId))?.status === 'pending') throw pending();
    const { region } = row.dataset;
    const key = `${imagingModelsPrefix}/${datasetId}/${randomUUID()}.zip`;
    let queued = false;
    try {
      let bytes: number;
      try {
        bytes = await this.deps.blobs.putFrom(region, key, body, imagingModelsMaxBytes);
      } catch (error) {
        if (error instanceof BlobLimitError) throw new ServiceError(413, 'too_large', imagingModelsTooLargeMessage);
        throw error;
      }
      await this.deps.unitOfWork.run(async (tx) => {
        // Checked again inside the transaction: a delivery queued meanwhile wins.
        const current = await tx.imaging.find(datasetId);
        if (current?.status !== 'modelling')
          throw new ServiceError(409, 'imaging_not_modelling', imagingDatasetNotModellingMessage);
        const runs = await tx.imaging.latestDeliveries(imagingModelsJob.kind, [datasetId]);
        const latest = runs.get(datasetId);
        if (latest && (latest.jobStatus === 'queued' || latest.jobStatus === 'running')) throw pending();
        await tx.jobs.enqueue(imagingModelsJob, { datasetId, userId, storageKey: key }, userId);
        tx.events.record({
          ...workspaceEvent(userId, row.dataset.deviceId, 'imaging.models_submitted', {
            type: 'imaging_dataset',
            id: datasetId,
          }),
          projectId: row.dataset.projectId,
          after: { name: row.dataset.name, bytes },
        });
      });
      queued = true;
    } finally {
      if (!queued) await this.deps.blobs.delete(region, key);
    }
    const [dataset] = await this.withDeliveries([(await this.deps.repository.findInQueue(datasetId))!]);
    return { pending: true, accepted: false, findings: [], dataset: dataset! };
  }

  /**
   * The delivery job's work: the stored models checked in a CPU-pool thread; when they pass, the dataset becomes
   * ready with its `imaging.models_delivered` event (the system, on behalf of the staff; the uploader is told from
   * it) in one unit of work; when refused, the zip is removed and the findings are the job's result. A retry after
   * the dataset became ready with these models changes nothing.
   */
  async checkDelivery(
    delivery: ImagingModelsData,
    work: { progress(fraction: number, message?: string): Promise<void>; signal: AbortSignal },
  ): Promise<DeliveryOutcome> {
    const { datasetId, storageKey } = delivery;
    const dataset = await this.deps.repository.find(datasetId);
    if (dataset?.status === 'ready' && dataset.modelsStorageKey === storageKey) return { accepted: true, findings: [] };
    if (dataset?.status !== 'modelling') {
      if (dataset) await this.deps.blobs.delete(dataset.region, storageKey);
      return refused([{ file: '(the delivery)', tag: null, problem: imagingDatasetNotModellingMessage }]);
    }
    const outcome = await withLocalFile(this.deps.blobs, dataset.region, storageKey, async (local) => {
      if (!local) return null;
      await work.progress(0.05, 'Checking the models');
      return this.deps.cpu.run(imagingModelsTask, local, {
        signal: work.signal,
        // The task reports per file read; stored on the job's row, which the staff's queue shows.
        onProgress: (fraction) =>
          void work.progress(0.05 + 0.85 * fraction, 'Checking the models').catch(() => undefined),
      });
    });
    if (!outcome) return refused([{ file: '(the delivery)', tag: null, problem: 'could not be found in storage' }]);
    if (!outcome.accepted) {
      await this.deps.blobs.delete(dataset.region, storageKey);
      return refused(outcome.findings);
    }
    await work.progress(0.9, 'Making the cohort ready');
    const delivered = await this.deps.unitOfWork.run(async (tx) => {
      const changed = await tx.imaging.deliverModels(datasetId, {
        models: outcome.models,
        storageKey,
        deliveredBy: delivery.userId,
      });
      if (changed)
        tx.events.record({
          ...systemEvent(
            delivery.userId,
            dataset.deviceId,
            dataset.projectId,
            'imaging.models_delivered',
            { type: 'imaging_dataset', id: datasetId },
            // The uploader is who hears of it (services/job-notifications.ts), not the staff who delivered.
            { name: dataset.name, status: 'ready', patients: outcome.models.patients.length, tell: dataset.uploadedBy },
          ),
          before: { status: 'modelling' },
        });
      return changed;
    });
    if (!delivered) {
      await this.deps.blobs.delete(dataset.region, storageKey);
      return refused([{ file: '(the delivery)', tag: null, problem: imagingDatasetNotModellingMessage }]);
    }
    return { accepted: true, findings: [] };
  }

  /**
   * Removes the models zips that no delivery wants, with what was made from them (a process that crashed between
   * storing a zip and queueing its check, or a removal that failed), once older than the grace period: a zip is
   * wanted while its dataset holds it as its models or its check job is queued or running. A file changed within
   * the grace period is left for the next sweep (a delivery being stored or about to be queued). Scheduled hourly.
   */
  async sweepUnwantedModels(now: Date): Promise<{ removed: number; bytes: number }> {
    const before = now.getTime() - imagingModelsGraceMs;
    let removed = 0;
    let bytes = 0;
    for (const region of dataRegions) {
      // Every file of a delivery (its zip, a temporary of the zip being stored, the meshes made from it) by its zip.
      const byZip = new Map<string, StoredBlob[]>();
      for await (const file of this.deps.blobs.list(region, `${imagingModelsPrefix}/`)) {
        const zip = deliveryZipOf(file.key);
        if (zip) byZip.set(zip, [...(byZip.get(zip) ?? []), file]);
      }
      const zips = [...byZip.keys()];
      for (let i = 0; i < zips.length; i += 500) {
        const batch = zips.slice(i, i + 500);
        const wanted = await this.deps.repository.wantedModels(imagingModelsJob.kind, batch);
        for (const zip of batch) {
          if (wanted.has(zip)) continue;
          for (const file of byZip.get(zip)!) {
            if (file.modifiedAt.getTime() > before) continue;
            await this.deps.blobs.delete(region, file.key);
            removed += 1;
            bytes += file.bytes;
          }
        }
      }
    }
    return { removed, bytes };
  }

  /** After the delivery job's last failed attempt: the stored zip is removed (unless the dataset was made ready with it). */
  async abandonDelivery(delivery: ImagingModelsData): Promise<void> {
    const dataset = await this.deps.repository.find(delivery.datasetId);
    if (!dataset || dataset.modelsStorageKey === delivery.storageKey) return;
    await this.deps.blobs.delete(dataset.region, delivery.storageKey);
  }

  private async deliveryOf(datasetId: string): Promise<ImagingModelsDeliveryState | null> {
    const runs = await this.deps.repository.latestDeliveries(imagingModelsJob.kind, [datasetId]);
    const run = runs.get(datasetId);
    return run ? deliveryState(run) : null;
  }

  private async withDeliveries(rows: ImagingQueueRow[]): Promise<ImagingQueueItem[]> {
    const runs = await this.deps.repository.latestDeliveries(
      imagingModelsJob.kind,
      rows.map((row) => row.dataset.id),
    );
    return rows.map((row) => {
      const run = runs.get(row.dataset.id);
      return { ...present(row), workspace: row.workspace, delivery: run ? deliveryState(run) : null };
    });
  }

  private async authorize(userId: string): Promise<void> {
    const person = await this.deps.support.person(userId);
    if (!person) throw new ServiceError(401, 'unauthenticated', 'Please sign in again.');
    if (!maySupport('inbox.work', person, null)) throw new ServiceError(403, 'forbidden', imagingQueueRefusal);
  }
}

function notFound(): ServiceError {
  return new ServiceError(404, 'imaging_dataset_not_found', imagingDatasetNotFoundMessage);
}
