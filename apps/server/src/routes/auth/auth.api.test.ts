import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, openSignInPage, signIn, signUp, TestBrowser } from '../../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('sign-in through the embedded issuer', () => {
  it('answers 401 from /api/auth/me without a session', async () => {
    const response = await new TestBrowser(server.origin).get('/api/auth/me');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'unauthenticated', message: 'Please sign in.' } });
  });

  it('signs up, lands on the requested returnTo, and /me answers the profile', async () => {
    const browser = new TestBrowser(server.origin);
    const account = newAccount();
    const result = await signUp(browser, account, '/projects/overview?stage=concept');
    expect(result.landedOn).toBe('/projects/overview?stage=concept');
    const me = await browser.get('/api/auth/me');
    expect(me.status).toBe(200);
    const profile = (await me.json()) as Record<string, unknown>;
    expect(profile).toMatchObject({ email: account.email, fullName: account.fullName, identityProvider: 'embedded' });
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ (no Secure over plain http)', async () => {
    const response = await new TestBrowser(server.origin).get('/api/auth/login?returnTo=/');
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('session='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/; Secure/i);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!).pathname).toBe('/oidc/auth');
  });

  it('gives a new session id at sign-in: the pre-sign-in cookie is useless afterwards', async () => {
    const browser = new TestBrowser(server.origin);
    const account = newAccount();
    await browser.get('/api/auth/login?returnTo=/');
    const preSignIn = browser.cookies.get('session')!;
    await signUp(browser, account, '/');
    const afterSignIn = browser.cookies.get('session')!;
    expect(afterSignIn).not.toBe(preSignIn);
    const stale = new TestBrowser(server.origin);
    stale.cookies.set('session', preSignIn);
    expect((await stale.get('/api/auth/me')).status).toBe(401);
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses a replayed callback', async () => {
    const browser = new TestBrowser(server.origin);
    const uid = (await openSignInPage(browser))!;
    const submitted = await browser.postForm(`/oidc/interaction/${uid}/signup`, { ...newAccount() });
    let path =
      new URL(submitted.headers.get('location')!, server.origin).pathname +
      new URL(submitted.headers.get('location')!, server.origin).search;
    let callback = '';
    for (let hop = 0; hop < 5 && !callback; hop += 1) {
      const response = await browser.get(path);
      const next = new URL(response.headers.get('location')!, server.origin);
      if (next.pathname === '/api/auth/callback') callback = `${next.pathname}${next.search}`;
      path = `${next.pathname}${next.search}`;
    }
    const preSignIn = browser.cookies.get('session')!;
    expect((await browser.get(callback)).status).toBe(302);
    const replay = new TestBrowser(server.origin);
    replay.cookies.set('session', preSignIn);
    const refused = await replay.get(callback);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('This sign-in has expired or was started in another browser');
  });

  it('signs out: the old cookie gets 401 and the browser is sent to end the issuer session', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const cookie = browser.cookies.get('session')!;
    // What the confirm page's form sends (a browser's same-origin form post: Origin, an empty urlencoded body).
    const logout = await browser.postForm('/api/auth/logout', {});
    expect(logout.status).toBe(303);
    const location = new URL(logout.headers.get('location')!);
    expect(location.pathname).toBe('/oidc/session/end');
    expect(location.searchParams.get('post_logout_redirect_uri')).toBe(`${server.origin}/`);
    const old = new TestBrowser(server.origin);
    old.cookies.set('session', cookie);
    expect((await old.get('/api/auth/me')).status).toBe(401);
    // The issuer's sign-out page submits itself; after it, signing in asks for credentials again.
    const endPage = await browser.get(`${location.pathname}${location.search}`);
    expect(endPage.status).toBe(200);
    const html = await endPage.text();
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const confirmed = await browser.postForm(new URL(action, server.origin).pathname, { xsrf, logout: 'yes' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${server.origin}/`);
    const again = await browser.follow('/api/auth/login?returnTo=/');
    expect(again.path).toMatch(/^\/oidc\/interaction\//);
  });

  it('does not sign out on a GET (a link or image from any site): it shows a page that asks to confirm', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const page = await browser.get('/api/auth/logout');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/api/auth/logout">');
    expect(html).toContain('Sign out?');
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses a cross-site sign-out POST: the session survives', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const foreign = await browser.request('/api/auth/logout', {
      method: 'POST',
      body: '',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    });
    expect(foreign.status).toBe(403);
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  it('signs in again with the same account', async () => {
    const account = newAccount();
    await signUp(new TestBrowser(server.origin), account, '/');
    const browser = new TestBrowser(server.origin);
    const result = await signIn(browser, account, '/help');
    expect(result.landedOn).toBe('/help');
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses a wrong password with a message and no session', async () => {
    const account = newAccount();
    await signUp(new TestBrowser(server.origin), account, '/');
    const browser = new TestBrowser(server.origin);
    const uid = (await openSignInPage(browser))!;
    const response = await browser.postForm(`/oidc/interaction/${uid}/login`, {
      email: account.email,
      password: 'Wrong-password-1',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('The e-mail address or password is not correct.');
    expect((await browser.get('/api/auth/me')).status).toBe(401);
  });
});

describe('password rules at sign-up', () => {
  const cases: [string, string][] = [
    ['Ab1!', 'Use at least 8 characters (this one has 4).'],
    ['abcdefghij', 'Use at least 3 of these 4 kinds of characters'],
    ['Password1', 'This password is one of the most commonly used and easy to guess. Choose another.'],
  ];
  it.each(cases)('refuses %s with a clear message', async (password, message) => {
    const browser = new TestBrowser(server.origin);
    const uid = (await openSignInPage(browser))!;
    const response = await browser.postForm(`/oidc/interaction/${uid}/signup`, { ...newAccount(), password });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
  });

  it('refuses an e-mail that already has an account', async () => {
    const account = newAccount();
    await signUp(new TestBrowser(server.origin), account, '/');
    const browser = new TestBrowser(server.origin);
    const uid = (await openSignInPage(browser))!;
    const response = await browser.postForm(`/oidc/interaction/${uid}/signup`, { ...account });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('An account with this e-mail address already exists.');
  });
});

describe('password change at the embedded issuer', () => {
  it('checks the current password and the rule, then only the new password signs in', async () => {
    const account = newAccount();
    await signUp(new TestBrowser(server.origin), account, '/');
    const browser = new TestBrowser(server.origin);
    expect((await browser.get('/oidc/account/password')).status).toBe(200);
    const wrongCurrent = await browser.postForm('/oidc/account/password', {
      email: account.email,
      currentPassword: 'Not-the-password-1',
      password: 'Brand-new-Pass-77',
    });
    expect(wrongCurrent.status).toBe(400);
    expect(await wrongCurrent.text()).toContain('The e-mail address or current password is not correct.');
    const weak = await browser.postForm('/oidc/account/password', {
      email: account.email,
      currentPassword: account.password,
      password: 'short',
    });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain('Use at least 8 characters');
    const changed = await browser.postForm('/oidc/account/password', {
      email: account.email,
      currentPassword: account.password,
      password: 'Brand-new-Pass-77',
    });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('Your password has been changed.');
    const withNew = new TestBrowser(server.origin);
    expect((await signIn(withNew, { ...account, password: 'Brand-new-Pass-77' }, '/')).landedOn).toBe('/');
    await expect(signIn(new TestBrowser(server.origin), account, '/')).rejects.toThrow(/answered 400/);
  });

  it('refuses a cross-origin password change', async () => {
    const response = await new TestBrowser(server.origin).request('/oidc/account/password', {
      method: 'POST',
      body: 'email=a%40b.c&currentPassword=x&password=y',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });
});

describe('hostile returnTo values', () => {
  const hostile = [
    // Absolute and scheme-relative
    'https://evil.example/',
    'http://evil.example',
    '//evil.example',
    '//evil.example/path',
    '///evil.example',
    'https:evil.example',
    'http:/evil.example',
    'evil.example',
    // Backslashes
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    // Encoded slashes and backslashes, one and two layers
    '/%2F%2Fevil.example',
    '%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%255Cevil.example',
    '/%252F%252Fevil.example',
    '%252F%252Fevil.example',
    // Dot segments, plain and percent-encoded (normalise into `//evil.example`)
    '/.//evil.example',
    '/..//evil.example',
    '/a/..//evil.example',
    '/a/b/../..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/.%2e//evil.example',
    '/%252e%252e//evil.example',
    '/a/%2e%2e/%2fevil.example',
    '/./%2F/evil.example',
    '/.%2F%2Fevil.example',
    // Scripts and data
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    // Control characters and CRLF
    '/\r\nLocation: https://evil.example',
    '/%0d%0aLocation:%20https://evil.example',
    '/%250d%250aSet-Cookie:x=y',
    '/\tevil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/\u0000//evil.example',
    // Userinfo tricks
    'https://127.0.0.1@evil.example',
    '//user:pass@evil.example',
    'https://example.com%40evil.example',
    'https://evil.example\\@127.0.0.1',
    // Unicode slashes and dots
    '\u2215\u2215evil.example',
    '/\uff0f/evil.example',
    '\uff0f\uff0fevil.example',
    '/\u3002/evil.example',
    // Spaces, empty, broken encoding, very long
    ' //evil.example',
    '',
    '%',
    `/${'a'.repeat(5000)}`,
    `//${'a'.repeat(3000)}.evil.example`,
  ];

  it('has at least 40 values', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(40);
  });

  it('never produces an off-site Location after sign-in', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    for (const value of hostile) {
      // The issuer session is live, so each sign-in goes all the way through the issuer to the callback,
      // and the callback's Location is the last redirect followed.
      const result = await browser.follow(`/api/auth/login?returnTo=${encodeURIComponent(value)}`);
      const onOurSite = result.offSite === null && result.path.startsWith('/') && !result.path.startsWith('//');
      expect(onOurSite, `returnTo ${JSON.stringify(value)} ended at ${result.offSite ?? result.path}`).toBe(true);
      expect(
        result.path.startsWith('/oidc') || result.path.startsWith('/api/auth'),
        `${JSON.stringify(value)} → ${result.path}`,
      ).toBe(false);
      expect(new URL(result.path, server.origin).origin).toBe(server.origin);
      expect(/[\\\r\n]/.test(result.path), `${JSON.stringify(value)} → ${result.path}`).toBe(false);
      expect(new URL(result.path, server.origin).pathname.startsWith('//')).toBe(false);
    }
  });
});

describe('same-origin rule for state-changing calls', () => {
  it('refuses a cross-origin POST and accepts a same-origin one', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const crossOrigin = await browser.postJson(
      '/api/notifications/seen',
      { all: true },
      { origin: 'https://evil.example' },
    );
    expect(crossOrigin.status).toBe(403);
    expect(((await crossOrigin.json()) as { error: { code: string } }).error.code).toBe('cross_origin');
    const crossSite = await browser.postJson(
      '/api/notifications/seen',
      { all: true },
      { origin: server.origin, 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const sameOrigin = await browser.postJson('/api/notifications/seen', { all: true });
    expect(sameOrigin.status).toBe(200);
  });

  it('refuses a POST with neither Origin nor Sec-Fetch-Site', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const response = await fetch(`${server.origin}/api/notifications/seen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `session=${browser.cookies.get('session')}` },
      body: JSON.stringify({ all: true }),
    });
    expect(response.status).toBe(403);
  });
});
