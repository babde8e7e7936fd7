import type { MailRepository } from '../repositories/mail.repository';

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
  sentAt: string | null;
}

/** Outgoing mail goes to the outbox; in the embedded default operators read it there. */
export class MailService {
  constructor(private readonly repository: MailRepository) {}

  /** The newest mails first (operators, tests). */
  async outbox(limit = 50): Promise<OutboxMail[]> {
    const rows = await this.repository.listNewest(limit);
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
