import { designHistoryExportExpiryJob, designHistoryExportJob } from './design-history-export.job';
import { defineJob } from './job-definition';

/** Makes and stores one design history file (DesignHistoryExportService.build); the last failed attempt says why. */
export const designHistoryExportPerformer = defineJob(
  designHistoryExportJob,
  async ({ data, attempt, signal, services }) => {
    try {
      return await services.designHistoryExports.build(data.exportId);
    } catch (error) {
      if (!signal.aborted && attempt > designHistoryExportJob.retryLimit)
        await services.designHistoryExports.failed(
          data.exportId,
          error instanceof Error ? error.message : String(error),
        );
      throw error;
    }
  },
);

/** Removes the files of exports past their retention (their rows stay, marked expired). */
export const designHistoryExportExpiryPerformer = defineJob(designHistoryExportExpiryJob, async ({ services }) => ({
  removed: await services.designHistoryExports.expire(new Date()),
}));
