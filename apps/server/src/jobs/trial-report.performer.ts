import { defineJob } from './job-definition';
import { trialReportJob } from './trial-report.job';

/** Makes and stores one trial report (TrialService.buildReport); the last failed attempt marks the report failed. */
export const trialReportPerformer = defineJob(trialReportJob, async ({ data, attempt, signal, services }) => {
  try {
    return await services.trials.buildReport(data.reportId);
  } catch (error) {
    if (!signal.aborted && attempt > trialReportJob.retryLimit)
      await services.trials.reportFailed(data.reportId, error instanceof Error ? error.message : String(error));
    throw error;
  }
});
