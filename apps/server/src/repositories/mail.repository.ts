import { desc, eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { mailOutbox } from '../db/schema';
import { mailQueuedChannel } from './mail-delivery.repository';

export type MailRow = typeof mailOutbox.$inferSelect;

/** The mail outbox (see the table's comment). */
export class MailRepository {
  constructor(private readonly orm: Orm) {}

  /** Queues a mail and announces it to SMTP delivery (on commit, when inside a transaction). */
  async insert(mail: { to: string; subject: string; text: string }): Promise<MailRow> {
    const rows = await this.orm.insert(mailOutbox).values(mail).returning();
    await this.orm.execute(sql`select pg_notify(${mailQueuedChannel}, '')`);
    return rows[0]!;
  }

  /** The newest mails first; with `to`, only those to that (lower-case) address. */
  async listNewest(limit: number, to?: string): Promise<MailRow[]> {
    return this.orm
      .select()
      .from(mailOutbox)
      .where(to === undefined ? undefined : eq(mailOutbox.to, to))
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(limit);
  }
}
