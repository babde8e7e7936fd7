import type { OutboxMail } from '@insilico/contracts';
import type { MailRepository } from '../repositories/mail.repository';

/** Outgoing mail goes to the outbox; in the embedded default operators read it there. */
export class MailService {
  constructor(private readonly repository: MailRepository) {}

  /** The newest mails first, optionally only those to one address (operators, journeys, tests). */
  async outbox(limit = 50, to?: string): Promise<OutboxMail[]> {
    const rows = await this.repository.listNewest(limit, to?.trim().toLowerCase());
    return rows.map((row) => ({
      id: row.id,
      to: row.to,
      subject: row.subject,
      text: row.text,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    }));
  }
}
