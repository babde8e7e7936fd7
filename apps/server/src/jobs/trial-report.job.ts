import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ reportId: z.uuid() });

export type TrialReportJobData = z.infer<typeof dataSchema>;

/**
 * A trial's report (PDF): TrialService.requestReport enqueues it with the report's row, trial-report.performer.ts
 * gathers the trial as it stands, renders the PDF in the CPU pool and stores it once. Idempotent: a stored report
 * is not made again.
 */
export const trialReportJob: JobDescriptor<TrialReportJobData> = {
  kind: 'trial.report',
  retryLimit: 2,
  expireInSeconds: 15 * 60,
  parse: (data) => dataSchema.parse(data),
};
