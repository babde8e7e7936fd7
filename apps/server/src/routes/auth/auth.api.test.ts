import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  confirmSignUp,
  mailedConfirmationPath,
  newAccount,
  newestMail,
  openSignInPage,
  signIn,
  signUp,
  submitSignUp,
  TestBrowser,
} from '../../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { callbackUsedMessage } from '../../services/auth.service';

const decodeHtml = (html: string) => html.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');

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
    const account = newAccount();
    await submitSignUp(browser, account);
    const submitted = await confirmSignUp(browser, account.email);
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
    const signedIn = browser.cookies.get('session')!;
    // The same address again in the signed-in browser (history, reload): a clear answer, and the session stays.
    const again = await browser.get(callback);
    expect(again.status).toBe(409);
    expect(decodeHtml(await again.text())).toContain(callbackUsedMessage);
    expect(again.headers.getSetCookie().some((line) => line.startsWith('session='))).toBe(false);
    expect(browser.cookies.get('session')).toBe(signedIn);
    expect((await browser.get('/api/auth/me')).status).toBe(200);
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
});

describe('sign-up answers the same whether or not the address has an account', () => {
  /** The sign-up answer with the address taken out (it is echoed back). */
  async function answer(response: Response, email: string): Promise<{ status: number; html: string }> {
    return { status: response.status, html: (await response.text()).replaceAll(email, '<email>') };
  }

  it('answers "Check your e-mail to continue" for a taken address too, mails the owner, and changes nothing', async () => {
    const owner = newAccount();
    await signUp(new TestBrowser(server.origin), owner, '/');
    const stranger = new TestBrowser(server.origin);
    const taken = await answer(
      await submitSignUp(stranger, { ...owner, fullName: 'Someone Else', password: 'Another-Valve-77' }),
      owner.email,
    );
    const fresh = newAccount();
    const free = await answer(await submitSignUp(new TestBrowser(server.origin), fresh), fresh.email);
    expect(taken.status).toBe(200);
    expect(taken.html.replace(/\/oidc\/interaction\/[\w-]+/g, '')).toBe(
      free.html.replace(/\/oidc\/interaction\/[\w-]+/g, ''),
    );
    expect(taken.html).toContain('Check your e-mail to continue');
    expect(taken.html).not.toContain('already');
    // The owner is told by mail; the account and its password stay as they were.
    const mail = await newestMail(server.origin, owner.email);
    expect(mail.subject).toBe('Someone tried to create an InSilico Workspace account with your e-mail address');
    expect(mail.text).not.toMatch(/token=/);
    expect((await signIn(new TestBrowser(server.origin), owner, '/')).landedOn).toBe('/');
    await expect(
      signIn(new TestBrowser(server.origin), { ...owner, password: 'Another-Valve-77' }, '/'),
    ).rejects.toThrow(/answered 400/);
    expect((await stranger.get('/api/auth/me')).status).toBe(401);
  });

  it('creates a new account only when the mailed link is used, and signs in with it in the same browser', async () => {
    const browser = new TestBrowser(server.origin);
    const account = newAccount();
    const submitted = await submitSignUp(browser, account, '/help');
    expect(submitted.status).toBe(200);
    expect(await submitted.text()).toContain('Check your e-mail to continue');
    expect((await browser.get('/api/auth/me')).status).toBe(401);
    // No account before the link is used: the password does not sign in yet.
    await expect(signIn(new TestBrowser(server.origin), account, '/')).rejects.toThrow(/answered 400/);
    const mail = await newestMail(server.origin, account.email);
    expect(mail.subject).toBe('Confirm your e-mail address for InSilico Workspace');
    const confirmed = await confirmSignUp(browser, account.email);
    expect(confirmed.status).toBe(303);
    const me = await browser.follow(
      new URL(confirmed.headers.get('location')!, server.origin).pathname +
        new URL(confirmed.headers.get('location')!, server.origin).search,
    );
    expect(me.path).toBe('/help');
    expect((await browser.get('/api/auth/me')).status).toBe(200);
    // The link works once.
    const reused = await browser.get(await mailedConfirmationPath(server.origin, account.email));
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('This confirmation link is not valid or has expired.');
  });

  it('asks for the sign-up password when the link is opened in another browser', async () => {
    const account = newAccount();
    await submitSignUp(new TestBrowser(server.origin), account);
    const elsewhere = new TestBrowser(server.origin);
    const wrong = await confirmSignUp(elsewhere, account.email, 'Not-the-password-9');
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('Enter the password you chose when you created the account.');
    const right = await confirmSignUp(elsewhere, account.email, account.password);
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('Your account is ready');
    expect((await signIn(new TestBrowser(server.origin), account, '/')).landedOn).toBe('/');
  });
});

/** A test browser behind a proxy that names the client address (for a server with TRUST_PROXY=true). */
class BrowserAt extends TestBrowser {
  constructor(
    origin: string,
    private readonly address: string,
  ) {
    super(origin);
  }

  override request(path: string, init: Parameters<TestBrowser['request']>[1] = {}): Promise<Response> {
    return super.request(path, { ...init, headers: { 'x-forwarded-for': this.address, ...init?.headers } });
  }
}

/** Moves every counted attempt `seconds` into the past (the throttle times them by the database's clock). */
async function ageAttempts(target: TestServer, seconds: number): Promise<void> {
  await target.context.db.orm.execute(sql`update auth_attempts set at = at - make_interval(secs => ${seconds})`);
}

async function wrongPassword(browser: TestBrowser, email: string): Promise<Response> {
  const uid = (await openSignInPage(browser))!;
  return browser.postForm(`/oidc/interaction/${uid}/login`, { email, password: 'Wrong-password-1' });
}

describe('throttling of password guesses and sign-ups', () => {
  it('refuses the 6th wrong password within a minute with 429; the right password works after the window', async () => {
    const account = newAccount();
    await signUp(new TestBrowser(server.origin), account, '/');
    const guesser = new TestBrowser(server.origin);
    for (let attempt = 1; attempt <= 5; attempt += 1)
      expect((await wrongPassword(guesser, account.email)).status, `attempt ${attempt}`).toBe(400);
    const sixth = await wrongPassword(guesser, account.email);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await sixth.text()).toContain('Too many attempts. Try again in 1 minute.');
    // Locked means locked: not even the right password gets through during the window …
    await expect(signIn(new TestBrowser(server.origin), account, '/')).rejects.toThrow(/answered 429/);
    // … and after it, the right password signs in.
    await ageAttempts(server, 61);
    expect((await signIn(new TestBrowser(server.origin), account, '/')).landedOn).toBe('/');
  });

  it('throttles wrong current passwords at password change like wrong passwords at sign-in', async () => {
    const account = newAccount();
    await signUp(new TestBrowser(server.origin), account, '/');
    const browser = new TestBrowser(server.origin);
    const attempt = () =>
      browser.postForm('/oidc/account/password', {
        email: account.email,
        currentPassword: 'Not-the-password-1',
        password: 'Brand-new-Pass-77',
      });
    for (let n = 1; n <= 5; n += 1) expect((await attempt()).status).toBe(400);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many attempts. Try again in 1 minute.');
    // The guesses count at sign-in too.
    expect((await wrongPassword(new TestBrowser(server.origin), account.email)).status).toBe(429);
  });

  it('limits sign-ups per e-mail address, the same for a taken and a free address', async () => {
    const owner = newAccount();
    await signUp(new TestBrowser(server.origin), owner, '/'); // 1 sign-up of this address counted
    const fresh = newAccount();
    await submitSignUp(new TestBrowser(server.origin), fresh); // 1 of this one
    for (const account of [owner, fresh]) {
      for (let n = 2; n <= 3; n += 1)
        expect((await submitSignUp(new TestBrowser(server.origin), account)).status, `${n}`).toBe(200);
      const refused = await submitSignUp(new TestBrowser(server.origin), account);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain('Too many attempts. Try again in 15 minutes.');
    }
  });
});

describe('throttle keys behind a trusted proxy (request.ip)', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await proxied?.stop();
  });

  it("a stranger's guesses from another address do not lock the owner out", async () => {
    const account = newAccount();
    await signUp(new BrowserAt(proxied.origin, '198.51.100.7'), account, '/');
    const stranger = new BrowserAt(proxied.origin, '203.0.113.9');
    for (let n = 1; n <= 5; n += 1) expect((await wrongPassword(stranger, account.email)).status).toBe(400);
    expect((await wrongPassword(stranger, account.email)).status).toBe(429);
    expect((await signIn(new BrowserAt(proxied.origin, '198.51.100.7'), account, '/')).landedOn).toBe('/');
  });

  it('counts wrong passwords per client address over all accounts (credential stuffing)', async () => {
    const stuffer = new BrowserAt(proxied.origin, '203.0.113.50');
    for (let n = 1; n <= 50; n += 1)
      expect((await wrongPassword(stuffer, `victim${n}.${Date.now()}@example.com`)).status, `${n}`).toBe(400);
    const refused = await wrongPassword(stuffer, `one-more.${Date.now()}@example.com`);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(/Too many attempts\. Try again in 1[45] minutes\./);
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
