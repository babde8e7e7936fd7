import { designHistoryIncomingSweepJob } from './design-history-incoming.job';
import { defineJob } from './job-definition';

/** Removes attachment upload temporaries a crash left, past the grace period (hourly). */
export const designHistoryIncomingSweepPerformer = defineJob(designHistoryIncomingSweepJob, async ({ services }) =>
  services.designHistoryAttachments.sweepIncoming(new Date()),
);
