import { z } from 'zod';
import type { JobDefinition } from './job-definition';

/**
 * Sends the due mails of the outbox over SMTP (see MailDeliveryService). Started right after a
 * mail is queued and every minute for the retries with back-off. Idempotent: mails already sent
 * are never taken again, so a retried or doubled run sends nothing twice.
 */
export const mailDeliveryJob: JobDefinition<Record<string, never>> = {
  kind: 'mail.deliver',
  retryLimit: 2,
  expireInSeconds: 15 * 60,
  parse: (data) =>
    z
      .object({})
      .strict()
      .parse(data ?? {}) as Record<string, never>,
  async perform({ services, signal }) {
    // A worker started without SMTP_URL leaves the outbox as it is; a configured process sends it.
    if (!services.mailDelivery) return { skipped: 'SMTP_URL is not set in this process' };
    return services.mailDelivery.deliverDue(signal);
  },
};
