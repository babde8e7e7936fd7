import type { JobDescriptor } from './job-descriptor';
import { parseNoData } from './scheduled-job';

/** Sends the due mails of the outbox (JobService schedules and nudges it; mail-delivery.performer.ts works it). */
export const mailDeliveryJob: JobDescriptor<Record<string, never>> = {
  kind: 'mail.deliver',
  retryLimit: 2,
  expireInSeconds: 15 * 60,
  parse: parseNoData,
};
