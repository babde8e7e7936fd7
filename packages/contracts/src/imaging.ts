import { z } from 'zod';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import { text } from './text';

/**
 * Own imaging data (issue 19, spec §2 /upload-images, §5 "Anonymization upload"): one imaging dataset, a .zip of
 * at most 1 GB of DICOM images de-identified in the browser, uploaded resumably (tus, purpose `imaging_dataset`),
 * then re-checked by the server file by file before it becomes an imaging cohort of a project.
 * See docs/decisions/imaging.md.
 */

/** checking: the server re-reads every file; refused: a finding names the file and tag; modelling: accepted, the
 * patient models are being made; ready: the cohort works like the built-in ones. */
export const imagingDatasetStatuses = ['checking', 'refused', 'modelling', 'ready'] as const;
export type ImagingDatasetStatus = (typeof imagingDatasetStatuses)[number];

export const imagingZipFileNamePattern = /\.zip$/i;
export const notZipMessage = 'Only a .zip of DICOM images can be uploaded as an imaging dataset.';
export const imagingNameMaxLength = 80;
export const imagingNameTooLongMessage = `The dataset name can have at most ${imagingNameMaxLength} characters.`;
export const imagingDatasetNotFoundMessage = 'This imaging dataset does not exist (any more).';
/** Project creation: a dataset that is not the creator's, of another workspace, refused, or already in a project. */
export const imagingDatasetNotInProjectMessage =
  'No such imaging dataset of yours in this device workspace, or it already belongs to a project.';

/** What the server found wrong with an uploaded dataset: the file (path in the zip), and the tag where there is one. */
export interface ImagingFinding {
  file: string;
  tag: string | null;
  problem: string;
}

/** At most this many findings are kept and shown (the first ones; the count of the rest is one more finding). */
export const imagingFindingsShown = 50;

/** The manifest the browser writes beside the de-identified files (checked for shape, stored, shown). */
export const imagingManifestSchema = z.object({
  tool: text().max(200),
  profile: text().max(200),
  options: z.array(text().max(200)).max(20),
  createdAt: text().max(40),
  series: z
    .array(
      z.object({
        patient: text().max(64),
        studyInstanceUid: text().max(64),
        seriesInstanceUid: text().max(64),
        modality: text().max(16),
        files: z.number().int().nonnegative(),
        images: z.number().int().nonnegative(),
        actions: z
          .array(
            z.object({
              tag: text().max(40),
              name: text().max(120),
              action: text().max(4),
              count: z.number().int().nonnegative(),
            }),
          )
          .max(2000),
        burnedInKept: z.array(text().max(200)).max(20),
        /** regions (image pixels) blanked in every image of the series, as the user drew them (Clean Pixel Data) */
        maskedRegions: z
          .array(
            z.object({
              x: z.number().int().nonnegative(),
              y: z.number().int().nonnegative(),
              width: z.number().int().positive(),
              height: z.number().int().positive(),
            }),
          )
          .max(100)
          .default([]),
      }),
    )
    .max(20_000),
  excludedSeries: z.number().int().nonnegative(),
  additionalFiles: z.array(text().max(300)).max(10_000),
});
export type ImagingManifest = z.infer<typeof imagingManifestSchema>;

export const createImagingDatasetSchema = z.object({
  uploadId: z.uuid(),
  name: text().trim().min(1, 'Give the dataset a name.').max(imagingNameMaxLength, imagingNameTooLongMessage),
  note: text().max(2000).optional(),
  /** the project whose cohort it becomes (the wizard's project), if any */
  projectId: z.uuid().optional(),
});
export type CreateImagingDataset = z.infer<typeof createImagingDatasetSchema>;

export const imagingDatasetParamsSchema = z.object({ deviceId: z.uuid(), datasetId: z.uuid() });

export const imagingFindingSchema = z.object({ file: text(), tag: text().nullable(), problem: text() });

/**
 * Patient models delivered by support staff for an imaging dataset (issue 19 item 7): a .zip with, per patient
 * folder, closed surfaces named `<organ>_<phase>.stl` and `landmarks.json`. Validated on upload.
 */
export const imagingModelsMaxBytes = 256 * 1024 * 1024;
export const imagingModelsTooLargeMessage = 'The patient models can have at most 256 MB as one .zip.';
export const imagingDatasetNotModellingMessage = 'Patient models can only be delivered for a dataset in modelling.';
export const imagingModelSchema = z.object({
  patient: text(),
  organ: text(),
  phase: text(),
  triangles: z.number().int().nonnegative(),
  /** enclosed volume, mm³ (closed surfaces only) */
  volume: z.number(),
});
export type ImagingModel = z.infer<typeof imagingModelSchema>;
export const imagingLandmarkSchema = z.object({
  name: text().min(1).max(100),
  position: z.tuple([z.number(), z.number(), z.number()]),
});
/** `<patient>/landmarks.json` */
export const imagingLandmarksFileSchema = z.object({ landmarks: z.array(imagingLandmarkSchema).min(1).max(1000) });
export const imagingModelsSchema = z.object({
  patients: z.array(
    z.object({ patient: text(), landmarks: z.array(imagingLandmarkSchema), models: z.array(imagingModelSchema) }),
  ),
  deliveredAt: text(),
  deliveredBy: z.object({ id: z.uuid(), name: text() }).nullable(),
});
export type ImagingModels = z.infer<typeof imagingModelsSchema>;

export const imagingDatasetSchema = z.object({
  id: z.uuid(),
  name: text(),
  note: text(),
  status: z.enum(imagingDatasetStatuses),
  projectId: z.uuid().nullable(),
  bytes: z.number().int().nonnegative(),
  region: z.enum(['eu', 'us']),
  uploadedBy: z.object({ id: z.uuid(), name: text() }).nullable(),
  createdAt: text(),
  checkedAt: text().nullable(),
  counts: z
    .object({
      patients: z.number().int().nonnegative(),
      studies: z.number().int().nonnegative(),
      series: z.number().int().nonnegative(),
      files: z.number().int().nonnegative(),
    })
    .nullable(),
  findings: z.array(imagingFindingSchema),
  manifest: imagingManifestSchema.nullable(),
  /** the patient models, once support staff delivered them (status ready) */
  models: imagingModelsSchema.nullable(),
});
export type ImagingDataset = z.infer<typeof imagingDatasetSchema>;

/** The support staff's modelling queue: datasets of every workspace waiting for models (and those delivered). */
export const imagingQueueQuerySchema = z.object({ status: z.enum(['modelling', 'ready']).default('modelling') });
/**
 * The latest delivery of patient models of a dataset, a durable job: pending while its check runs (progress 0..1),
 * then accepted (the dataset is ready), refused (the findings), or failed (the check could not be run).
 */
export const imagingModelsDeliveryStatuses = ['pending', 'accepted', 'refused', 'failed'] as const;
export const imagingModelsDeliveryStateSchema = z.object({
  status: z.enum(imagingModelsDeliveryStatuses),
  progress: z.number(),
  progressMessage: text().nullable(),
  findings: z.array(imagingFindingSchema),
  submittedAt: text(),
  finishedAt: text().nullable(),
});
export type ImagingModelsDeliveryState = z.infer<typeof imagingModelsDeliveryStateSchema>;
export const imagingModelsDeliveryPendingMessage = 'Patient models of this dataset are being checked already.';
export const imagingModelsDeliveryFailedMessage =
  'The patient models could not be checked. Please deliver them again, or contact the developers if this happens again.';

export const imagingQueueItemSchema = imagingDatasetSchema.extend({
  workspace: z.object({ id: z.uuid(), name: text() }),
  /** the latest delivery of models (null: none yet) */
  delivery: imagingModelsDeliveryStateSchema.nullable(),
});
export type ImagingQueueItem = z.infer<typeof imagingQueueItemSchema>;
export const imagingQueueSchema = z.object({ items: z.array(imagingQueueItemSchema) });
export type ImagingQueue = z.infer<typeof imagingQueueSchema>;
export const imagingQueueParamsSchema = z.object({ datasetId: z.uuid() });
/**
 * The answer to a models delivery (202): the models are stored and their check is queued as a job — `pending`, not
 * accepted yet, no findings; the dataset's `delivery` shows the check's progress and then its outcome.
 */
export const imagingModelsDeliverySchema = z.object({
  pending: z.boolean(),
  accepted: z.boolean(),
  findings: z.array(imagingFindingSchema),
  dataset: imagingQueueItemSchema,
});
export type ImagingModelsDelivery = z.infer<typeof imagingModelsDeliverySchema>;

export const imagingDatasetListSchema = z.object({ items: z.array(imagingDatasetSchema) });
export type ImagingDatasetList = z.infer<typeof imagingDatasetListSchema>;

const datasetsPath = '/api/devices/:deviceId/imaging-datasets';
const datasetPath = `${datasetsPath}/:datasetId` as const;
const queuePath = '/api/support/imaging-datasets';

/**
 * Imaging datasets of a workspace and the support staff's modelling queue (issue 19;
 * docs/decisions/endpoints-in-contracts.md).
 */
export const imagingEndpoints = {
  /** Made from a finished upload of the de-identified zip; the server re-checks it in the background. */
  create: endpoint({
    method: 'POST',
    path: datasetsPath,
    params: deviceParamsSchema,
    body: createImagingDatasetSchema,
    response: { 201: imagingDatasetSchema },
  }),
  list: endpoint({
    method: 'GET',
    path: datasetsPath,
    params: deviceParamsSchema,
    response: { 200: imagingDatasetListSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: datasetPath,
    params: imagingDatasetParamsSchema,
    response: { 200: imagingDatasetSchema },
  }),
  /** The dataset's zip, by byte ranges (a file, not JSON). */
  file: endpoint({ method: 'GET', path: `${datasetPath}/file`, params: imagingDatasetParamsSchema }),
  queue: endpoint({
    method: 'GET',
    path: queuePath,
    query: imagingQueueQuerySchema,
    response: { 200: imagingQueueSchema },
  }),
  /** The dataset's de-identified zip (a file). */
  download: endpoint({ method: 'GET', path: `${queuePath}/:datasetId/download`, params: imagingQueueParamsSchema }),
  /** The patient models (.zip as the raw body): stored, and checked by a job. */
  deliverModels: endpoint({
    method: 'PUT',
    path: `${queuePath}/:datasetId/models`,
    params: imagingQueueParamsSchema,
    response: { 202: imagingModelsDeliverySchema },
  }),
};
