/**
 * A minimal browser for API tests: a cookie jar, manual redirects, and the Origin header a
 * browser sends on same-origin POSTs. Enough to walk the real sign-in through the issuer pages.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  async request(
    path: string,
    init: { method?: string; body?: string | Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const url = new URL(path, this.origin);
    const headers: Record<string, string> = { ...init.headers };
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (cookie) headers.cookie = cookie;
    const method = init.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && !('origin' in headers)) headers.origin = this.origin;
    const response = await fetch(url, { method, body: init.body, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.store(line);
    return response;
  }

  get(path: string): Promise<Response> {
    return this.request(path);
  }

  postForm(path: string, fields: Record<string, string>): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
  }

  /** Follows redirects that stay on this origin; answers the last response and the off-site Location if any. */
  async follow(path: string, limit = 10): Promise<{ response: Response; path: string; offSite: string | null }> {
    let current = path;
    for (let hop = 0; hop < limit; hop += 1) {
      const response = await this.get(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location)
        return { response, path: current, offSite: null };
      const next = new URL(location, new URL(current, this.origin));
      if (next.origin !== this.origin) return { response, path: current, offSite: next.href };
      current = `${next.pathname}${next.search}${next.hash}`;
    }
    throw new Error(`more than ${limit} redirects from ${path}`);
  }

  private store(line: string): void {
    const [pair, ...attributes] = line.split(';');
    const index = pair!.indexOf('=');
    const name = pair!.slice(0, index).trim();
    const value = pair!.slice(index + 1).trim();
    const expired = attributes.some((attribute) => {
      const [key, raw] = attribute.split('=').map((part) => part.trim().toLowerCase());
      return (
        (key === 'max-age' && Number(raw) <= 0) ||
        (key === 'expires' && raw !== undefined && Date.parse(raw) < Date.now())
      );
    });
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

export interface Account {
  email: string;
  fullName: string;
  password: string;
}

let counter = 0;
export function newAccount(): Account {
  counter += 1;
  return {
    email: `user${counter}.${Date.now()}@example.com`,
    fullName: `Test User ${counter}`,
    password: 'Valve-Sizing-2026',
  };
}

/** Starts a sign-in and answers the issuer's interaction id, or null when no credentials are asked for. */
export async function openSignInPage(browser: TestBrowser, returnTo = '/'): Promise<string | null> {
  const interaction = await browser.follow(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  if (!interaction.path.startsWith('/oidc/interaction/')) return null;
  return interaction.path.split('/')[3]!.split('?')[0]!;
}

/** Reads the mail outbox of the server at an origin (newest first); test servers register theirs. */
export type OutboxReader = (to: string) => Promise<{ subject: string; text: string }[]>;
const outboxes = new Map<string, OutboxReader>();

/**
 * Registers the outbox of the server at `origin`; answers its removal, for when that server stops (the reader holds
 * the server, and test files may share a process: docs/decisions/ci-time.md).
 */
export function registerOutbox(origin: string, reader: OutboxReader): () => void {
  outboxes.set(origin, reader);
  return () => {
    if (outboxes.get(origin) === reader) outboxes.delete(origin);
  };
}

/** The newest mail to `email` at the server of `origin`. */
export async function newestMail(origin: string, email: string): Promise<{ subject: string; text: string }> {
  const reader = outboxes.get(origin);
  if (!reader) throw new Error(`no outbox registered for ${origin} (start the server with the test helpers)`);
  const [mail] = await reader(email.toLowerCase());
  if (!mail) throw new Error(`no mail to ${email} in the outbox`);
  return mail;
}

/** The path (with query) of the sign-up confirmation link mailed to `email`. */
export async function mailedConfirmationPath(origin: string, email: string): Promise<string> {
  const link = /https?:\/\/\S+\/confirm\?token=[\w%-]+/.exec((await newestMail(origin, email)).text)?.[0];
  if (!link) throw new Error(`the newest mail to ${email} has no confirmation link`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** Submits the sign-up form; answers the issuer's response ("Check your e-mail to continue" when accepted). */
export async function submitSignUp(browser: TestBrowser, account: Account, returnTo = '/'): Promise<Response> {
  const uid = await openSignInPage(browser, returnTo);
  if (!uid) throw new Error("expected the issuer's sign-in page");
  return browser.postForm(`/oidc/interaction/${uid}/signup`, { ...account });
}

/** Opens the mailed confirmation link in `browser` and confirms (with `password` when it asks for one). */
export async function confirmSignUp(browser: TestBrowser, email: string, password?: string): Promise<Response> {
  const path = await mailedConfirmationPath(browser.origin, email);
  const page = await browser.get(path);
  if (page.status !== 200) throw new Error(`the confirmation link answered ${page.status}`);
  const token = new URL(path, browser.origin).searchParams.get('token')!;
  return browser.postForm(path.split('?')[0]!, password === undefined ? { token } : { token, password });
}

/**
 * Walks /api/auth/login → issuer sign-up page → form → "Check your e-mail" → the mailed link, confirmed in
 * the same browser → callback; answers where the browser lands.
 */
export async function signUp(
  browser: TestBrowser,
  account: Account,
  returnTo = '/',
): Promise<{ landedOn: string; status: number }> {
  const submitted = await submitSignUp(browser, account, returnTo);
  const html = await submitted.text();
  if (submitted.status !== 200 || !html.includes('Check your e-mail to continue'))
    throw new Error(`the sign-up form answered ${submitted.status}: ${html.slice(0, 2000)}`);
  return completeFrom(browser, await confirmSignUp(browser, account.email));
}

/** Signs in with an existing account through the issuer's sign-in page. */
export async function signIn(
  browser: TestBrowser,
  account: Account,
  returnTo = '/',
): Promise<{ landedOn: string; status: number }> {
  const uid = await openSignInPage(browser, returnTo);
  if (!uid) throw new Error('expected the issuer to ask for credentials (is an issuer session still alive?)');
  const submitted = await browser.postForm(`/oidc/interaction/${uid}/login`, {
    email: account.email,
    password: account.password,
  });
  return completeFrom(browser, submitted);
}

async function completeFrom(browser: TestBrowser, submitted: Response): Promise<{ landedOn: string; status: number }> {
  const location = submitted.headers.get('location');
  if (submitted.status !== 303 || !location) {
    throw new Error(`the issuer form answered ${submitted.status}: ${(await submitted.text()).slice(0, 2000)}`);
  }
  const start = new URL(location, browser.origin);
  // Follow until we leave the sign-in machinery (issuer pages and the callback).
  let current = `${start.pathname}${start.search}`;
  for (let hop = 0; hop < 10; hop += 1) {
    if (!current.startsWith('/oidc') && !current.startsWith('/api/auth/')) return { landedOn: current, status: 200 };
    const response = await browser.get(current);
    const next = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !next) return { landedOn: current, status: response.status };
    const url = new URL(next, browser.origin);
    if (url.origin !== browser.origin) throw new Error(`sign-in redirected off-site to ${url.href}`);
    current = `${url.pathname}${url.search}${url.hash}`;
  }
  throw new Error('too many redirects while signing in');
}
