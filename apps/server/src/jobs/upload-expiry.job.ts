import type { JobDescriptor } from './job-descriptor';
import { parseNoData } from './scheduled-job';

/** Removes resumable uploads whose time ran out; scheduled every 15 minutes by JobService. */
export const uploadExpiryJob: JobDescriptor<Record<string, never>> = {
  kind: 'uploads.expire',
  retryLimit: 1,
  expireInSeconds: 10 * 60,
  parse: parseNoData,
};
