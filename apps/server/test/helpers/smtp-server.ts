import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message with quoted-printable soft breaks and escapes undone (enough for assertions). */
  raw: string;
  header(name: string): string | null;
}

/** A real SMTP server on loopback for delivery tests: records what it accepts, refuses on demand. */
export interface LocalSmtp {
  url: string;
  received: ReceivedMail[];
  /** The next `times` deliveries to `address` are refused with a temporary 451. */
  refuse(address: string, times?: number): void;
  /** Waits until `count` mails to `address` arrived (or throws after `ms`). */
  waitFor(address: string, count?: number, ms?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startLocalSmtp(): Promise<LocalSmtp> {
  const received: ReceivedMail[] = [];
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const left = refusals.get(address.address) ?? 0;
      if (left > 0) {
        refusals.set(address.address, left - 1);
        const refusal = new Error('Mailbox busy, try again later') as Error & { responseCode: number };
        refusal.responseCode = 451;
        return callback(refusal);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8'));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          header: (name) => headerOf(raw, name),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  const to = (address: string) => received.filter((mail) => mail.to.includes(address));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(address, times = 1) {
      refusals.set(address, times);
    },
    async waitFor(address, count = 1, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if (to(address).length >= count) return to(address);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the SMTP server received ${to(address).length} of ${count} mails to ${address} within ${ms} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/((?:=[0-9A-F]{2})+)/g, (escaped) =>
    Buffer.from(
      escaped
        .split('=')
        .slice(1)
        .map((hex) => parseInt(hex, 16)),
    ).toString('utf8'),
  );
}

function headerOf(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((found) => found.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}
