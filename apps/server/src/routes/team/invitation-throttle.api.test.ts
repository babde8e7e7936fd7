import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { createWorkspace, errorOf, invite, mailedToken, signedIn } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('invitation redemption is throttled', () => {
  it('refuses the 6th link that is not valid with 429; a real link works after the window', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const guesser = await signedIn(server);
    expect((await invite(admin, deviceId, guesser.account.email)).status).toBe(201);
    const token = await mailedToken(server, guesser.account.email);

    for (let n = 1; n <= 5; n += 1) {
      const guessed = await guesser.browser.postJson('/api/invitations/accept', { token: `${n}`.padEnd(43, 'x') });
      expect((await errorOf(guessed)).code, `guess ${n}`).toBe('invitation_invalid');
    }
    const refused = await errorOf(await guesser.browser.postJson('/api/invitations/accept', { token: 'y'.repeat(43) }));
    expect(refused).toMatchObject({
      status: 429,
      code: 'too_many_attempts',
      message: 'Too many attempts. Try again in 15 minutes.',
    });
    // During the window even the real link waits …
    expect((await guesser.browser.postJson('/api/invitations/accept', { token })).status).toBe(429);
    // … after it, it works.
    await server.context.db.orm.execute(sql`update auth_attempts set at = at - interval '15 minutes 1 second'`);
    expect((await guesser.browser.postJson('/api/invitations/accept', { token })).status).toBe(200);
  });
});
