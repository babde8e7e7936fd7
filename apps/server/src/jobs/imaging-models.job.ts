import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

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
