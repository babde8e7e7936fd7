import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** The same on every attempt of one mail, so a receiver can tell a resend from a new mail. */
  messageId: string;
}

/** Hands mail to an SMTP server. The only code that knows nodemailer. */
export class SmtpRepository {
  private readonly transport: Transporter;

  /** `smtpUrl` like `smtp://user:pass@host:587` or `smtps://host:465` (nodemailer's URL form). */
  constructor(smtpUrl: string) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      // A hanging server must not hold a delivery run for nodemailer's default of minutes.
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
    });
  }

  /** Resolves when the server accepted the mail; rejects with the server's refusal otherwise. */
  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      messageId: mail.messageId,
    });
  }

  close(): void {
    this.transport.close();
  }
}
