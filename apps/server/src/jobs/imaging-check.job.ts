import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ datasetId: z.uuid(), userId: z.uuid() });

export type ImagingCheckData = z.infer<typeof dataSchema>;

/** The web page of the workspace's imaging datasets (the notification links to it). */
export function imagingPagePath(deviceId: string, datasetId: string): string {
  return `/upload-images/success?${new URLSearchParams({ dataset: datasetId, device: deviceId }).toString()}`;
}

/** The server's re-check of an uploaded imaging dataset (ImagingService enqueues it; imaging-check.performer.ts works it). */
export const imagingCheckJob: JobDescriptor<ImagingCheckData> = {
  kind: 'imaging.check',
  retryLimit: 2,
  expireInSeconds: 60 * 60,
  parse: (data) => dataSchema.parse(data),
};
