import type { JobDescriptor } from './job-descriptor';
import { parseNoData } from './scheduled-job';

/** Deletes expired and idle sessions; scheduled every 15 minutes by JobService. */
export const sessionPurgeJob: JobDescriptor<Record<string, never>> = {
  kind: 'sessions.purge',
  retryLimit: 1,
  expireInSeconds: 5 * 60,
  parse: parseNoData,
};
