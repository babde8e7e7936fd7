import { defineJob } from './job-definition';
import { deviceVersionJob } from './device-version.job';

/**
 * Processing of a new device version: every STL file validated, measured and previewed, then ready or failed,
 * the target project joined and the people told (DeviceVersionService.process). Restart-safe: files already
 * judged are skipped on a retry, the end state is set once, links and notifications are keyed.
 */
export const deviceVersionPerformer = defineJob(
  deviceVersionJob,
  async ({ data, attempt, signal, progress, services }) => {
    try {
      return await services.deviceVersions.process(data.versionId, { progress, signal });
    } catch (error) {
      // The last attempt failed for a reason no file explains: the version stops showing "processing".
      if (!signal.aborted && attempt > deviceVersionJob.retryLimit)
        await services.deviceVersions.failProcessing(data.versionId);
      throw error;
    }
  },
);
