import { defineJob } from './job-definition';
import { uploadExpiryJob } from './upload-expiry.job';

/** Removes resumable uploads whose time ran out (their rows and bytes); scheduled every 15 minutes. */
export const uploadExpiryPerformer = defineJob(uploadExpiryJob, async ({ services }) => {
  return { removed: await services.uploads.expire() };
});
