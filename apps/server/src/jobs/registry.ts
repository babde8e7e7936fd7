import { cohortOrderJob } from './cohort-order.job';
import { deviceVersionJob } from './device-version.job';
import type { JobDefinition } from './job-definition';
import { mailDeliveryJob } from './mail-delivery.job';
import { selfCheckJob } from './self-check.job';
import { sessionPurgeJob } from './session-purge.job';
import { uploadExpiryJob } from './upload-expiry.job';

/** Every kind of durable job, worked by the in-process runner and by `npm run worker`. */
export const jobDefinitions: readonly JobDefinition<unknown>[] = [
  selfCheckJob,
  sessionPurgeJob,
  mailDeliveryJob,
  cohortOrderJob,
  deviceVersionJob,
  uploadExpiryJob,
];
