import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, TestBrowser } from '../../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { errorOf, json, send, signedIn } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Profile {
  email: string;
  fullName: string;
  jobTitle: string | null;
  pictureUrl: string | null;
}

describe('profile (/my-account)', () => {
  it('reads the profile: name from the sign-up, e-mail from the identity, no job title or picture yet', async () => {
    const person = await signedIn(server);
    expect(await json(await person.browser.get('/api/me/profile'))).toEqual({
      email: person.account.email.toLowerCase(),
      fullName: person.account.fullName,
      jobTitle: null,
      pictureUrl: null,
    });
  });

  it('saves full name and job title, trimmed; an empty job title clears it; /api/auth/me follows', async () => {
    const person = await signedIn(server);
    const saved = await send(person.browser, 'PATCH', '/api/me/profile', {
      fullName: '  Dr. Ada Lovelace ',
      jobTitle: ' Head of R&D ',
    });
    expect(saved.status).toBe(200);
    expect(await json<Profile>(saved)).toMatchObject({ fullName: 'Dr. Ada Lovelace', jobTitle: 'Head of R&D' });
    expect(await json(await person.browser.get('/api/auth/me'))).toMatchObject({
      fullName: 'Dr. Ada Lovelace',
      jobTitle: 'Head of R&D',
    });
    const cleared = await json<Profile>(await send(person.browser, 'PATCH', '/api/me/profile', { jobTitle: '   ' }));
    expect(cleared).toMatchObject({ fullName: 'Dr. Ada Lovelace', jobTitle: null });
    expect(
      (await json<Profile>(await send(person.browser, 'PATCH', '/api/me/profile', { jobTitle: null }))).jobTitle,
    ).toBeNull();
  });

  it('keeps the edited name when the person signs in again', async () => {
    const person = await signedIn(server);
    await send(person.browser, 'PATCH', '/api/me/profile', { fullName: 'Renamed Person' });
    const again = new TestBrowser(server.origin);
    await signIn(again, person.account);
    expect((await json<Profile>(await again.get('/api/me/profile'))).fullName).toBe('Renamed Person');
  });

  it('refuses an empty or too long name, an e-mail change and an empty change', async () => {
    const person = await signedIn(server);
    expect((await send(person.browser, 'PATCH', '/api/me/profile', { fullName: '  ' })).status).toBe(400);
    expect((await send(person.browser, 'PATCH', '/api/me/profile', { fullName: 'x'.repeat(101) })).status).toBe(400);
    expect((await send(person.browser, 'PATCH', '/api/me/profile', { jobTitle: 'y'.repeat(101) })).status).toBe(400);
    const emailOnly = await errorOf(
      await send(person.browser, 'PATCH', '/api/me/profile', { email: 'new@example.com' }),
    );
    expect(emailOnly).toMatchObject({ status: 400, code: 'bad_request' });
    expect((await json<Profile>(await person.browser.get('/api/me/profile'))).email).toBe(
      person.account.email.toLowerCase(),
    );
  });

  it('needs a signed-in user and a same-origin request', async () => {
    const anonymous = new TestBrowser(server.origin);
    expect((await anonymous.get('/api/me/profile')).status).toBe(401);
    expect((await send(anonymous, 'PATCH', '/api/me/profile', { fullName: 'X' })).status).toBe(401);
    const person = await signedIn(server);
    const crossSite = await person.browser.request('/api/me/profile', {
      method: 'PATCH',
      body: JSON.stringify({ fullName: 'Mallory' }),
      headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' },
    });
    expect(crossSite.status).toBe(403);
    expect((await json<Profile>(await person.browser.get('/api/me/profile'))).fullName).toBe(person.account.fullName);
  });
});
