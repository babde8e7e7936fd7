import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  imagingDatasetNotFoundMessage,
  imagingDatasetNotModellingMessage,
  imagingModelsMaxBytes,
  imagingModelsTooLargeMessage,
  type ImagingModelsDelivery,
  type ImagingQueue,
  type ImagingQueueItem,
} from '@insilico/contracts';
import type { CpuRunner } from '../cpu/pool';
import { imagingModelsTask } from '../cpu/imaging-models.task';
import { imagingPagePath } from '../jobs/imaging-check.job';
import { maySupport } from '../policies/support.policy';
import { BlobLimitError, type BlobStore } from '../repositories/blob.repository';
import type { ImagingQueueRow, ImagingRepository } from '../repositories/imaging.repository';
import type { SupportRepository } from '../repositories/support.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { workspaceEvent } from '../events/kinds';
import { ServiceError } from './errors';
import { present } from './imaging.service';
import type { NotificationService } from './notification.service';

export const imagingQueueRefusal = 'The modelling queue is for support staff only.';

export interface ImagingQueueServiceDeps {
  repository: ImagingRepository;
  support: SupportRepository;
  blobs: BlobStore;
  cpu: CpuRunner;
  notifications: NotificationService;
  unitOfWork: UnitOfWork;
}

const presentQueued = (row: ImagingQueueRow): ImagingQueueItem => ({ ...present(row), workspace: row.workspace });

/**
 * The support staff's side of imaging cohorts (issue 19 item 7): the queue of de-identified datasets waiting for
 * patient models (every workspace), the dataset's zip to download, and the delivery of the models — a .zip checked
 * in the CPU pool (closed surfaces per organ and phase, landmarks per patient), after which the dataset is ready
 * and its uploader is told. Support staff only (403 for anybody else, like the support inbox).
 */
export class ImagingQueueService {
  constructor(private readonly deps: ImagingQueueServiceDeps) {}

  async queue(userId: string, status: 'modelling' | 'ready'): Promise<ImagingQueue> {
    await this.authorize(userId);
    return { items: (await this.deps.repository.queue(status)).map(presentQueued) };
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
   * Stores the models zip beside the dataset (same data region), checks it in the CPU pool, and makes the dataset
   * ready when every model passes; refused models are removed again and the findings answered (nothing changes).
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
    const { region } = row.dataset;
    const key = `imaging-models/${datasetId}/${randomUUID()}.zip`;
    let keep = false;
    try {
      try {
        await this.deps.blobs.putFrom(region, key, body, imagingModelsMaxBytes);
      } catch (error) {
        if (error instanceof BlobLimitError) throw new ServiceError(413, 'too_large', imagingModelsTooLargeMessage);
        throw error;
      }
      const local = await this.deps.blobs.localFile(region, key);
      if (!local) throw new Error('The delivered models could not be read back from storage.');
      const outcome = await this.deps.cpu.run(imagingModelsTask, local);
      if (!outcome.accepted) return { accepted: false, findings: outcome.findings, dataset: presentQueued(row) };
      // The dataset becomes ready with its event (issue 20), in one unit of work.
      const delivered = await this.deps.unitOfWork.run(async (tx) => {
        const changed = await tx.imaging.deliverModels(datasetId, {
          models: outcome.models,
          storageKey: key,
          deliveredBy: userId,
        });
        if (changed)
          tx.events.record({
            ...workspaceEvent(userId, row.dataset.deviceId, 'imaging.models_delivered', {
              type: 'imaging_dataset',
              id: datasetId,
            }),
            projectId: row.dataset.projectId,
            before: { status: 'modelling' },
            after: { name: row.dataset.name, status: 'ready', patients: outcome.models.patients.length },
          });
        return changed;
      });
      if (!delivered) throw new ServiceError(409, 'imaging_not_modelling', imagingDatasetNotModellingMessage);
      keep = true;
    } finally {
      if (!keep) await this.deps.blobs.delete(region, key);
    }
    const ready = (await this.deps.repository.findInQueue(datasetId))!;
    if (ready.dataset.uploadedBy) {
      await this.deps.notifications
        .post({
          userId: ready.dataset.uploadedBy,
          kind: 'imaging.ready',
          title: `The imaging cohort ${ready.dataset.name} is ready`,
          body: `Patient models of ${ready.dataset.models?.patients.length ?? 0} patients were delivered.`,
          link: imagingPagePath(ready.dataset.deviceId, ready.dataset.id),
          dedupeKey: `imaging-ready:${ready.dataset.id}`,
        })
        .catch(() => undefined);
    }
    return { accepted: true, findings: [], dataset: presentQueued(ready) };
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
