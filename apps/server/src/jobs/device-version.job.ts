import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ versionId: z.uuid() });

export type DeviceVersionJobData = z.infer<typeof dataSchema>;

/** The web page of a device version (the notification links to it). */
export function deviceVersionPagePath(deviceId: string, versionId: string): string {
  return `/device-versions?version=${versionId}&device=${deviceId}`;
}

/** Processing of a new device version (DeviceVersionService enqueues it; device-version.performer.ts works it). */
export const deviceVersionJob: JobDescriptor<DeviceVersionJobData> = {
  kind: 'device-version.process',
  retryLimit: 3,
  expireInSeconds: 60 * 60,
  parse: (data) => dataSchema.parse(data),
};
