import { and, asc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { mailOutbox } from '../db/schema';

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** The channel on which a new outbox mail is announced (sent on commit, so never for a rolled-back mail). */
export const mailQueuedChannel = 'mail_outbox';

/**
 * The delivery state of outbox mails: which are due, who is sending one (a lease in
 * `next_attempt_at`), and the outcome of each attempt.
 */
export class MailDeliveryRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes the oldest due mail for one attempt: counts the attempt and moves `next_attempt_at` to
   * the end of the lease in the same statement, so concurrent senders never take the same mail
   * and a sender that dies leaves the mail due again when the lease ends. Null when none is due.
   */
  async claimDue(now: Date, leaseUntil: Date, maxAttempts: number): Promise<OutboxRow | null> {
    const due = this.db.orm
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          isNull(mailOutbox.sentAt),
          lt(mailOutbox.attempts, maxAttempts),
          or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, now)),
        ),
      )
      .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const rows = await this.db.orm
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: leaseUntil })
      .where(and(eq(mailOutbox.id, sql`(${due})`), isNull(mailOutbox.sentAt)))
      .returning();
    return rows[0] ?? null;
  }

  async markSent(id: string, at: Date): Promise<void> {
    await this.db.orm
      .update(mailOutbox)
      .set({ sentAt: at, lastError: null, nextAttemptAt: null })
      .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt)));
  }

  /** Records a refused attempt; `retryAt` null after the last attempt (`claimDue` skips mails out of attempts). */
  async markFailed(id: string, error: string, retryAt: Date | null): Promise<void> {
    await this.db.orm
      .update(mailOutbox)
      .set({ lastError: error, nextAttemptAt: retryAt })
      .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt)));
  }

  /** Calls back whenever a mail is queued by any process (see `announceQueued`). */
  async onQueued(callback: () => void): Promise<() => Promise<void>> {
    return this.db.listen(mailQueuedChannel, () => callback());
  }
}
