import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSmtp, type LocalSmtp } from '../../test/helpers/smtp-server';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import { MailDeliveryRepository } from '../repositories/mail-delivery.repository';
import { MailRepository } from '../repositories/mail.repository';
import { SmtpRepository } from '../repositories/smtp.repository';
import { createWorkspace, invite, signedIn } from '../../test/fixtures/workspace.fixtures';
import { MailDeliveryService, retryDelayMs } from '../services/mail-delivery.service';

// SMTP delivery of the outbox against a real SMTP server on loopback.

interface OutboxState {
  id: string;
  sent_at: Date | string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | string | null;
}

async function outboxRow(server: TestServer, to: string): Promise<OutboxState> {
  const result = await server.context.db.executeSql(
    'select id, sent_at, attempts, last_error, next_attempt_at from mail_outbox where "to" = $1',
    [to],
  );
  expect(result.rows).toHaveLength(1);
  return result.rows[0] as unknown as OutboxState;
}

async function waitForRow(
  server: TestServer,
  to: string,
  done: (row: OutboxState) => boolean,
  ms = 15_000,
): Promise<OutboxState> {
  const deadline = Date.now() + ms;
  let row = await outboxRow(server, to);
  while (!done(row) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    row = await outboxRow(server, to);
  }
  if (!done(row)) throw new Error(`outbox row to ${to} did not reach the expected state: ${JSON.stringify(row)}`);
  return row;
}

const address = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe('with SMTP_URL: the delivery job', () => {
  let smtp: LocalSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startLocalSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Workspace <no-reply@insilico.test>' });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('sends a queued mail at once and marks it sent', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const colleague = address('colleague');
    expect((await invite(admin, deviceId, colleague)).status).toBe(201);

    const [mail] = await smtp.waitFor(colleague);
    const row = await waitForRow(server, colleague, (found) => found.sent_at !== null);
    expect(row).toMatchObject({ attempts: 1, last_error: null, next_attempt_at: null });
    expect(mail!.from).toBe('no-reply@insilico.test');
    expect(mail!.header('subject')).toBe('You are invited to the device workspace Valve X');
    expect(mail!.header('to')).toBe(colleague);
    expect(mail!.header('message-id')).toBe(`<${row.id}@127.0.0.1>`);
    expect(mail!.raw).toContain(`${server.origin}/accept-invitation?token=`);
  });

  it('retries a refused delivery after the back-off, and delivers it once', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const busy = address('busy');
    smtp.refuse(busy);
    const before = Date.now();
    expect((await invite(admin, deviceId, busy)).status).toBe(201);

    const refused = await waitForRow(server, busy, (found) => found.attempts === 1 && found.last_error !== null);
    expect(refused.sent_at).toBeNull();
    expect(refused.last_error).toContain('451');
    const retryAt = new Date(refused.next_attempt_at!).getTime();
    expect(retryAt).toBeGreaterThanOrEqual(before + retryDelayMs(1) - 1000);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + retryDelayMs(1) + 1000);
    expect(smtp.received.filter((mail) => mail.to.includes(busy))).toHaveLength(0);

    // The back-off is a minute: move the retry to now instead of waiting, then ask for a run.
    await server.context.db.executeSql('update mail_outbox set next_attempt_at = now() where id = $1', [refused.id]);
    await server.context.jobs.requestMailDelivery();
    const delivered = await waitForRow(server, busy, (found) => found.sent_at !== null);
    expect(delivered).toMatchObject({ attempts: 2, last_error: null });
    expect(await smtp.waitFor(busy)).toHaveLength(1);

    // Runs after the success (a retried job, a second worker) send nothing again.
    expect(await server.context.mailDelivery!.deliverDue()).toEqual({ sent: 0, refused: 0 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.filter((mail) => mail.to.includes(busy))).toHaveLength(1);
  });

  it('sends each mail once when several runs work the outbox at the same time', async () => {
    const mail = new MailRepository(server.context.db.orm);
    const recipients = [address('a'), address('b'), address('c'), address('d')];
    for (const to of recipients) await mail.insert({ to, subject: 'Parallel', text: `Hello ${to}` });
    const runs = await Promise.all([
      server.context.mailDelivery!.deliverDue(),
      server.context.mailDelivery!.deliverDue(),
      server.context.mailDelivery!.deliverDue(),
    ]);
    for (const to of recipients) await waitForRow(server, to, (found) => found.sent_at !== null);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const to of recipients) {
      expect(smtp.received.filter((received) => received.to.includes(to))).toHaveLength(1);
      expect((await outboxRow(server, to)).attempts).toBe(1);
    }
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBeLessThanOrEqual(recipients.length);
  });
});

describe('without SMTP_URL', () => {
  let server: TestServer;
  let smtp: LocalSmtp;
  beforeAll(async () => {
    smtp = await startLocalSmtp();
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('leaves the outbox as the operators’ inbox', async () => {
    expect(server.context.mailDelivery).toBeNull();
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const colleague = address('kept');
    expect((await invite(admin, deviceId, colleague)).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await outboxRow(server, colleague)).toMatchObject({ sent_at: null, attempts: 0 });
  });

  it('gives up after the last attempt and keeps the last error', async () => {
    // A delivery service of its own on this database, with a clock the test moves.
    let now = new Date();
    const delivery = new MailDeliveryService(
      new MailDeliveryRepository(server.context.db),
      new SmtpRepository(smtp.url),
      { from: 'no-reply@insilico.test', messageIdDomain: 'insilico.test', maxAttempts: 2, now: () => now },
    );
    await server.context.db.executeSql('update mail_outbox set sent_at = now()');
    const refused = address('refused');
    smtp.refuse(refused, 5);
    await new MailRepository(server.context.db.orm).insert({ to: refused, subject: 'Never', text: 'x' });

    expect(await delivery.deliverDue()).toEqual({ sent: 0, refused: 1 });
    // Not due again before the back-off ends.
    expect(await delivery.deliverDue()).toEqual({ sent: 0, refused: 0 });
    now = new Date(now.getTime() + retryDelayMs(1) + 1000);
    expect(await delivery.deliverDue()).toEqual({ sent: 0, refused: 1 });
    const row = await outboxRow(server, refused);
    expect(row).toMatchObject({ sent_at: null, attempts: 2, next_attempt_at: null });
    expect(row.last_error).toContain('451');
    now = new Date(now.getTime() + 24 * 60 * 60_000);
    expect(await delivery.deliverDue()).toEqual({ sent: 0, refused: 0 });
  });
});
