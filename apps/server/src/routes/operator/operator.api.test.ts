import { readFileSync } from 'node:fs';
import { outboxSchema } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverFile } from '../../server';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { createWorkspace, invite, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
let admin: Person;
let token = '';
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server);
  const { deviceId } = await createWorkspace(admin);
  for (const email of ['first@example.com', 'second@example.com', 'Third@Example.com'])
    expect((await invite(admin, deviceId, email)).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

function outbox(query = '', authorization: string | null = `Bearer ${token}`): Promise<Response> {
  return fetch(`${server.origin}/api/operator/outbox${query}`, {
    headers: authorization === null ? {} : { authorization },
  });
}

describe('operator outbox', () => {
  it('filters the outbox by recipient (case-insensitive) and limits it, newest first', async () => {
    const all = await server.context.mail.outbox(10);
    expect(all.map((mail) => mail.to).slice(0, 3)).toEqual([
      'third@example.com',
      'second@example.com',
      'first@example.com',
    ]);
    expect((await server.context.mail.outbox(10, ' Second@Example.com')).map((mail) => mail.to)).toEqual([
      'second@example.com',
    ]);
    expect(await server.context.mail.outbox(1)).toHaveLength(1);
  });

  // With PostgreSQL there is no operator route: `npm run outbox` reads the database itself.
  it('is served only with the embedded database, to loopback callers with the token from DATA_DIR', async () => {
    if (server.databaseUrl) {
      expect((await outbox('', 'Bearer anything')).status).toBe(404);
      return;
    }
    token = (JSON.parse(readFileSync(serverFile(server.dataDir), 'utf8')) as { operatorToken: string }).operatorToken;
    expect(token.length).toBeGreaterThan(20);
    for (const authorization of [null, 'Bearer wrong', `Bearer ${token}x`, token]) {
      const response = await outbox('', authorization);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: { code: 'forbidden', message: 'Operator token required.' } });
    }
    // A signed-in browser session is no operator.
    expect((await admin.browser.get('/api/operator/outbox')).status).toBe(403);

    const all = outboxSchema.parse(await (await outbox()).json()).items;
    expect(all[0]).toMatchObject({
      to: 'third@example.com',
      sentAt: null,
      subject: 'You are invited to the device workspace Valve X',
    });
    expect(all[0]!.text).toMatch(/\/accept-invitation\?token=[\w-]{43}/);
    const second = outboxSchema.parse(await (await outbox('?to=Second@example.com')).json()).items;
    expect(second.map((mail) => mail.to)).toEqual(['second@example.com']);
    expect(outboxSchema.parse(await (await outbox('?limit=1')).json()).items).toHaveLength(1);
    expect((await outbox('?limit=0')).status).toBe(400);
    expect((await outbox('?limit=201')).status).toBe(400);
  });
});
