import type { JobDescriptor } from './job-descriptor';
import { parseNoData } from './scheduled-job';

/**
 * Removes the temporaries of streamed design history attachments that a crash left unmoved, once unchanged for
 * hours (services/design-history-attachments.ts `sweepIncomingAttachments`); scheduled hourly by JobService.
 */
export const designHistoryIncomingSweepJob: JobDescriptor<Record<string, never>> = {
  kind: 'design-history.incoming-sweep',
  retryLimit: 1,
  expireInSeconds: 10 * 60,
  parse: parseNoData,
};
