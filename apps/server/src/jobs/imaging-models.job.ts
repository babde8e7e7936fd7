import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';
import { parseNoData } from './scheduled-job';

const dataSchema = z.object({ datasetId: z.uuid(), userId: z.uuid(), storageKey: z.string().min(1) });

/** One delivery of patient models: the dataset, the support staff who delivered them, and where the zip lies. */
export type ImagingModelsData = z.infer<typeof dataSchema>;

/**
 * The check of delivered patient models (ImagingQueueService stores the zip and enqueues it; imaging-models.performer.ts
 * works it). Its `job_runs` row is the delivery's state: progress while pending, the findings in its result.
 */
export const imagingModelsJob: JobDescriptor<ImagingModelsData> = {
  kind: 'imaging.models',
  retryLimit: 2,
  expireInSeconds: 30 * 60,
  parse: (data) => dataSchema.parse(data),
};

/**
 * Removes models zips no delivery wants (stored by a process that crashed before queueing their check) and what
 * was made from them, past a grace period (ImagingQueueService.sweepUnwantedModels); scheduled hourly by JobService.
 */
export const imagingModelsSweepJob: JobDescriptor<Record<string, never>> = {
  kind: 'imaging.models-sweep',
  retryLimit: 1,
  expireInSeconds: 10 * 60,
  parse: parseNoData,
};
