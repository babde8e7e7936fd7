import type { MailDeliveryRepository } from '../repositories/mail-delivery.repository';
import type { OutgoingMail } from '../repositories/smtp.repository';

/** What hands a mail to SMTP (the SMTP repository; a test may pass its own). */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}

export interface MailDeliveryOptions {
  /** The From header (config MAIL_FROM). */
  from: string;
  /** The right-hand side of Message-IDs, e.g. the public host name. */
  messageIdDomain: string;
  maxAttempts?: number;
  /** How long one attempt may hold a mail before another sender may take it. */
  leaseMs?: number;
  now?: () => Date;
}

/** After this many refused attempts a mail stays in the outbox with its last error (operators see it). */
export const defaultMaxAttempts = 10;
const defaultLeaseMs = 5 * 60_000;
const maxErrorLength = 1000;

/**
 * The wait before the next attempt after `attempt` refusals: 1, 2, 4 … minutes, at most 6 hours.
 * Ten attempts span about 14 hours, long enough to outlast a mail server's maintenance.
 */
export function retryDelayMs(attempt: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempt - 1), 6 * 60 * 60_000);
}

export interface DeliveryReport {
  sent: number;
  refused: number;
}

/**
 * Sends the outbox over SMTP. Each mail is taken under a lease and marked sent right after the
 * server accepts it, so a run that is repeated (a job retry, a second worker) skips it. The one
 * unavoidable gap — the server accepted but the process died before marking — resends with the
 * same Message-ID.
 */
export class MailDeliveryService {
  private readonly now: () => Date;
  private readonly maxAttempts: number;
  private readonly leaseMs: number;

  constructor(
    private readonly repository: MailDeliveryRepository,
    private readonly sender: MailSender,
    private readonly options: MailDeliveryOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.maxAttempts = options.maxAttempts ?? defaultMaxAttempts;
    this.leaseMs = options.leaseMs ?? defaultLeaseMs;
  }

  /** Sends every mail that is due now, one at a time, until none is left or `signal` aborts. */
  async deliverDue(signal?: AbortSignal): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, refused: 0 };
    while (!signal?.aborted) {
      const now = this.now();
      const mail = await this.repository.claimDue(now, new Date(now.getTime() + this.leaseMs), this.maxAttempts);
      if (!mail) break;
      try {
        await this.sender.send({
          from: this.options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          messageId: `<${mail.id}@${this.options.messageIdDomain}>`,
        });
      } catch (error) {
        const last = mail.attempts >= this.maxAttempts;
        const retryAt = last ? null : new Date(this.now().getTime() + retryDelayMs(mail.attempts));
        await this.repository.markFailed(mail.id, describe(error), retryAt);
        report.refused += 1;
        continue;
      }
      await this.repository.markSent(mail.id, this.now());
      report.sent += 1;
    }
    return report;
  }

  /** Calls back when any process queues a mail (to start a delivery run at once). */
  onQueued(callback: () => void): Promise<() => Promise<void>> {
    return this.repository.onQueued(callback);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, maxErrorLength);
}
