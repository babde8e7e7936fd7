import { z } from 'zod';
import type { JobDefinition } from './job-definition';

const dataSchema = z.object({ versionId: z.uuid() });

export type DeviceVersionJobData = z.infer<typeof dataSchema>;

/** The web page of a device version (the notification links to it). */
export function deviceVersionPagePath(deviceId: string, versionId: string): string {
  return `/device-versions?version=${versionId}&device=${deviceId}`;
}

/**
 * Processing of a new device version: every STL file validated, measured and previewed, then ready or failed,
 * the target project joined and the people told (DeviceVersionService.process). Restart-safe: files already
 * judged are skipped on a retry, the end state is set once, links and notifications are keyed.
 */
export const deviceVersionJob: JobDefinition<DeviceVersionJobData> = {
  kind: 'device-version.process',
  retryLimit: 3,
  expireInSeconds: 60 * 60,
  parse: (data) => dataSchema.parse(data),
  async perform({ data, attempt, signal, progress, services }) {
    try {
      return await services.deviceVersions.process(data.versionId, { progress, signal });
    } catch (error) {
      // The last attempt failed for a reason no file explains: the version stops showing "processing".
      if (!signal.aborted && attempt > deviceVersionJob.retryLimit)
        await services.deviceVersions.failProcessing(data.versionId);
      throw error;
    }
  },
};
