import { defineJob } from './job-definition';
import { mailDeliveryJob } from './mail-delivery.job';

/**
 * Sends the due mails of the outbox over SMTP (see MailDeliveryService). Started right after a
 * mail is queued and every minute for the retries with back-off. Idempotent: mails already sent
 * are never taken again, so a retried or doubled run sends nothing twice.
 */
export const mailDeliveryPerformer = defineJob(mailDeliveryJob, async ({ services, signal }) => {
  // A worker started without SMTP_URL leaves the outbox as it is; a configured process sends it.
  if (!services.mailDelivery) return { skipped: 'SMTP_URL is not set in this process' };
  return services.mailDelivery.deliverDue(signal);
});
