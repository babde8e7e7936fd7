import { defineJob } from './job-definition';
import { sessionPurgeJob } from './session-purge.job';

/** Deletes expired and idle sessions; scheduled every 15 minutes. Idempotent by nature. */
export const sessionPurgePerformer = defineJob(sessionPurgeJob, async ({ services }) => {
  const removed = await services.sessions.purgeStale();
  return { removed };
});
