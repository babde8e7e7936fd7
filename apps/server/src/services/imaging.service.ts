import {
  cohortNameTakenMessage,
  imagingDatasetNotFoundMessage,
  type CreateImagingDataset,
  type ImagingDataset,
} from '@insilico/contracts';
import type { CpuRunner } from '../cpu/pool';
import { imagingCheckTask, type ImagingCheckResult } from '../cpu/imaging-check.task';
import { imagingCheckJob } from '../jobs/imaging-check.job';
import { systemEvent, workspaceEvent } from '../events/kinds';
import { withLocalFile, type BlobStore, type LocalFile } from '../repositories/blob.repository';
import { UploadGoneError } from '../repositories/device-version.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type {
  ImagingDatasetRow,
  ImagingDatasetWithUploader,
  ImagingRepository,
} from '../repositories/imaging.repository';
import type { UploadRepository } from '../repositories/upload.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { authorize } from './authorize';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';
import { uploadNotFoundMessage } from './upload.service';
import { callerGrant } from './caller-grant';

export const imagingUploadUnfinishedMessage = 'The upload is not finished yet. Resume it, then add the dataset.';
export const imagingUploadPurposeMessage = 'This upload is not an imaging dataset. Upload the anonymized .zip again.';

export interface ImagingServiceDeps {
  repository: ImagingRepository;
  uploads: UploadRepository;
  devices: DeviceRepository;
  projectAccess: ProjectAccessService;
  unitOfWork: UnitOfWork;
  blobs: BlobStore;
  cpu: CpuRunner;
}

/**
 * Imaging datasets (issue 19): made from the uploader's finished tus upload of the browser's de-identified zip
 * (admins and members, like every upload; a project named must be one the caller manages), re-checked by the
 * server in the background, listed and shown to the workspace (guests see none: datasets are not per project yet).
 */
export class ImagingService {
  constructor(private readonly deps: ImagingServiceDeps) {}

  async create(userId: string, deviceId: string, input: CreateImagingDataset): Promise<ImagingDataset> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.deps.devices.findMembership(device, user)),
    );
    const projectId = input.projectId ?? null;
    if (projectId) await this.deps.projectAccess.require('project.manage', userId, deviceId, projectId);
    const upload = await this.deps.uploads.find(deviceId, input.uploadId);
    // Someone else's upload answers like a missing one.
    if (!upload || upload.userId !== userId || upload.expiresAt <= new Date())
      throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage);
    if (upload.purpose !== 'imaging_dataset')
      throw new ServiceError(415, 'not_imaging_upload', imagingUploadPurposeMessage);
    if (upload.completedAt === null || upload.offset !== upload.length)
      throw new ServiceError(409, 'upload_unfinished', imagingUploadUnfinishedMessage);
    let row: ImagingDatasetRow;
    try {
      // The dataset, the upload it takes over and its check job commit together: never "checking" without a job.
      row = await this.deps.unitOfWork.run(async (tx) => {
        // The dataset becomes a patient cohort of projects: its name is unique among the workspace's cohorts (spec §5).
        if (await tx.cohorts.nameTaken(deviceId, input.name))
          throw new ServiceError(409, 'cohort_name_taken', cohortNameTakenMessage);
        const created = await tx.imaging.createFromUpload({
          deviceId,
          projectId,
          name: input.name,
          note: input.note?.trim() ?? '',
          uploadedBy: userId,
          uploadId: upload.id,
        });
        const run = await tx.jobs.enqueue(imagingCheckJob, { datasetId: created.id, userId }, userId);
        await tx.imaging.setJob(created.id, run.id);
        tx.events.record({
          ...workspaceEvent(userId, deviceId, 'imaging.dataset_added', { type: 'imaging_dataset', id: created.id }),
          projectId,
          after: { name: input.name, note: input.note?.trim() ?? '', projectId, uploadId: upload.id },
        });
        return created;
      });
    } catch (error) {
      if (error instanceof UploadGoneError) throw new ServiceError(404, 'upload_not_found', uploadNotFoundMessage);
      throw error;
    }
    return this.get(userId, deviceId, row.id);
  }

  async list(userId: string, deviceId: string): Promise<ImagingDataset[]> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.deps.devices.findMembership(device, user)),
    );
    return (await this.deps.repository.list(deviceId)).map(present);
  }

  async get(userId: string, deviceId: string, datasetId: string): Promise<ImagingDataset> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.deps.devices.findMembership(device, user)),
    );
    const found = await this.deps.repository.findWithUploader(deviceId, datasetId);
    if (!found) throw new ServiceError(404, 'imaging_dataset_not_found', imagingDatasetNotFoundMessage);
    return present(found);
  }

  /**
   * The stored zip of an accepted dataset on this machine's disk (the slice viewer reads it by byte ranges, issue
   * 19 item 8): who may see the dataset may view it; a refused or unchecked one answers 404.
   */
  async file(userId: string, deviceId: string, datasetId: string): Promise<LocalFile> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.deps.devices.findMembership(device, user)),
    );
    const found = await this.deps.repository.findWithUploader(deviceId, datasetId);
    const status = found?.dataset.status;
    const local =
      found && (status === 'modelling' || status === 'ready')
        ? await this.deps.blobs.localFile(found.dataset.region, found.dataset.storageKey)
        : null;
    if (!local) throw new ServiceError(404, 'imaging_dataset_not_found', imagingDatasetNotFoundMessage);
    return local;
  }

  /** The check job's work: the stored zip re-read in a CPU-pool thread; the outcome recorded once. */
  async check(
    datasetId: string,
    work: { progress(fraction: number, message?: string): Promise<void>; signal: AbortSignal },
  ): Promise<ImagingDatasetRow | null> {
    const dataset = await this.deps.repository.find(datasetId);
    if (!dataset) return null;
    if (dataset.status === 'checking') {
      const outcome: ImagingCheckResult = await withLocalFile(
        this.deps.blobs,
        dataset.region,
        dataset.storageKey,
        async (local) =>
          local
            ? this.deps.cpu.run(imagingCheckTask, local, {
                signal: work.signal,
                onProgress: (fraction) => void work.progress(fraction, 'Checking every file').catch(() => undefined),
              })
            : {
                accepted: false,
                findings: [{ file: '(the upload)', tag: null, problem: 'could not be found in storage' }],
                manifest: null,
              },
      );
      // The outcome and its event (the system, for the uploader, who hears of it from the event) commit together.
      await this.deps.unitOfWork.run(async (tx) => {
        if (await tx.imaging.markChecked(dataset.id, outcome))
          tx.events.record({
            ...systemEvent(
              dataset.uploadedBy,
              dataset.deviceId,
              dataset.projectId,
              'imaging.dataset_checked',
              { type: 'imaging_dataset', id: dataset.id },
              {
                name: dataset.name,
                accepted: outcome.accepted,
                status: outcome.accepted ? 'modelling' : 'refused',
                findings: outcome.accepted ? 0 : outcome.findings.length,
              },
            ),
            before: { status: 'checking' },
          });
      });
    }
    return this.deps.repository.find(datasetId);
  }
}

/** A dataset as the API shows it (also the staff queue's, with its workspace). */
export function present({ dataset, uploader, deliverer }: ImagingDatasetWithUploader): ImagingDataset {
  const counted =
    dataset.patients !== null && dataset.studies !== null && dataset.series !== null && dataset.files !== null;
  return {
    id: dataset.id,
    name: dataset.name,
    note: dataset.note,
    status: dataset.status,
    projectId: dataset.projectId,
    bytes: dataset.bytes,
    region: dataset.region,
    uploadedBy: uploader,
    createdAt: dataset.createdAt.toISOString(),
    checkedAt: dataset.checkedAt?.toISOString() ?? null,
    counts: counted
      ? { patients: dataset.patients!, studies: dataset.studies!, series: dataset.series!, files: dataset.files! }
      : null,
    findings: dataset.findings,
    manifest: dataset.manifest,
    models:
      dataset.models && dataset.readyAt
        ? { ...dataset.models, deliveredAt: dataset.readyAt.toISOString(), deliveredBy: deliverer }
        : null,
  };
}
