import {
  alreadySignedMessage,
  reauthenticationCancelledMessage,
  reauthenticationExpiredMessage,
  reauthenticationOtherAccountMessage,
  signatureWithIssuerMessage,
  type DesignHistoryEntry,
  type DesignHistoryList,
  type Reauthentication,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/helpers/browser';
import {
  planIssuer,
  startExternalIssuer,
  type ExternalIssuer,
  type IssuerAccount,
} from '../../../test/helpers/external-issuer';
import { freePort, startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { createWorkspace, errorOf, json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { insertProject } from '../../../test/factories/project-rows';
import { callbackUsedMessage } from '../../services/auth.service';

/**
 * Electronic signatures with an external identity provider (issue 20 item 5, 21 CFR Part 11 §11.200): the signer
 * signs in again at the provider (prompt=login, max_age=0), and the app's callback signs once the ID token shows a
 * sign-in by the same person made after the signing began, bound to it by state, nonce and PKCE. The provider is a
 * real OpenID Connect issuer on its own port (test/helpers/external-issuer.ts).
 */
let server: TestServer;
let issuer: ExternalIssuer;
let admin: Signer;
let deviceId = '';
let projectId = '';

interface Signer extends Person {
  /** The same person's browser at the issuer (its cookies: the issuer's session). */
  idp: TestBrowser;
  issuerAccount: IssuerAccount;
}

let counter = 0;
function issuerAccount(name: string): IssuerAccount {
  counter += 1;
  const account = {
    subject: `ext-${counter}-${Date.now()}`,
    email: `external.${counter}.${Date.now()}@example.com`,
    name,
    password: `Issuer-Password-${counter}`,
  };
  issuer.accounts.set(account.email, account);
  return account;
}

const pathOf = (url: URL) => `${url.pathname}${url.search}`;

/**
 * Walks the issuer from an authorization address (signing in with `credentials` when it asks) and answers the app's
 * callback path it sends the browser back to.
 */
async function throughIssuer(idp: TestBrowser, authorization: string, credentials: IssuerAccount): Promise<string> {
  const first = await idp.follow(pathOf(new URL(authorization)));
  let offSite = first.offSite;
  if (!offSite) {
    expect(first.response.status).toBe(200);
    const uid = first.path.split('/')[2]!;
    const submitted = await idp.postForm(`/interaction/${uid}/login`, {
      email: credentials.email,
      password: credentials.password,
    });
    expect(submitted.status).toBe(303);
    const resumed = await idp.follow(pathOf(new URL(submitted.headers.get('location')!, issuer.origin)));
    if (!resumed.offSite)
      throw new Error(
        `the issuer stopped at ${resumed.path}: ${resumed.response.status} ${await resumed.response.text()}`,
      );
    offSite = resumed.offSite;
  }
  const callback = new URL(offSite);
  expect(callback.origin).toBe(server.origin);
  expect(callback.pathname).toBe('/api/auth/callback');
  return pathOf(callback);
}

/** Signs a person in to the app through the external issuer. */
async function signedInExternally(name: string): Promise<Signer> {
  const account = issuerAccount(name);
  const browser = new TestBrowser(server.origin);
  const idp = new TestBrowser(issuer.origin);
  const login = await browser.get('/api/auth/login?returnTo=%2F');
  expect(login.status).toBe(302);
  const landed = await browser.get(await throughIssuer(idp, login.headers.get('location')!, account));
  expect(landed.status).toBe(302);
  const me = await json<{ id: string; identityProvider: string }>(await browser.get('/api/auth/me'));
  expect(me.identityProvider).toBe('external');
  return {
    browser,
    idp,
    id: me.id,
    issuerAccount: account,
    account: { email: account.email, fullName: name, password: account.password },
  };
}

const base = () => `/api/devices/${deviceId}/design-history`;
const sql = (text: string, values?: unknown[]) => server.context.db.executeSql(text, values);
const count = async (table: string) => Number((await sql(`select count(*)::int as n from ${table}`)).rows[0]!.n);

async function newEntry(title: string): Promise<string> {
  const response = await admin.browser.postJson(`${base()}/entries`, { projectId, kind: 'review', title });
  expect(response.status).toBe(201);
  return (await json<DesignHistoryEntry>(response)).id;
}

function begin(signer: Signer, entryId: string, meaning = 'approval'): Promise<Response> {
  return signer.browser.postJson(`${base()}/signatures/reauthentication`, {
    record: { type: 'entry', id: entryId },
    meaning,
    returnTo: `/design-history?projectId=${projectId}`,
  });
}

async function begun(signer: Signer, entryId: string, meaning = 'approval'): Promise<Reauthentication> {
  const response = await begin(signer, entryId, meaning);
  expect(response.status, await response.clone().text()).toBe(201);
  return json<Reauthentication>(response);
}

/** The callback's answer as the browser gets it: status and, for a refusal, the page's text. */
async function callback(
  browser: TestBrowser,
  path: string,
): Promise<{ status: number; location: string | null; text: string }> {
  const response = await browser.get(path);
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

const decoded = (html: string) => html.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');

beforeAll(async () => {
  const planned = planIssuer(await freePort());
  server = await startTestServer(planned.env);
  issuer = await startExternalIssuer(planned, server.origin);
  admin = await signedInExternally('Ada External');
  ({ deviceId } = await createWorkspace(admin));
  projectId = await insertProject(server, { deviceId, team: [admin.id], name: 'Issuer-signed valve' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await issuer?.stop();
});

describe('signing with an external identity provider', () => {
  it('is offered as a fresh sign-in at the provider; the password route refuses with 409 and signs nothing', async () => {
    const list = await json<DesignHistoryList>(await admin.browser.get(`${base()}?projectId=${projectId}`));
    expect(list.signing).toEqual({ method: 'issuer', needsEmail: true });
    const entryId = await newEntry('Password attempt');
    const before = await count('electronic_signatures');
    const response = await admin.browser.postJson(`${base()}/signatures`, {
      record: { type: 'entry', id: entryId },
      meaning: 'approval',
      password: 'anything',
    });
    expect(await errorOf(response)).toMatchObject({ status: 409, message: signatureWithIssuerMessage });
    expect(await count('electronic_signatures')).toBe(before);
  });

  it('signs after a fresh sign-in (prompt=login, max_age=0) even though the provider holds a session', async () => {
    const entryId = await newEntry('Design review 1');
    const startedAt = Math.floor(Date.now() / 1000);
    const { location, expiresAt } = await begun(admin, entryId);
    const authorization = new URL(location);
    expect(authorization.origin).toBe(issuer.origin);
    expect(authorization.searchParams.get('prompt')).toBe('login');
    expect(authorization.searchParams.get('max_age')).toBe('0');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge']) expect(authorization.searchParams.get(name)).toBeTruthy();
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(60_000);
    // Nothing is signed until the provider has confirmed the sign-in.
    expect(
      Number(
        (await sql(`select count(*)::int as n from electronic_signatures where record_id = $1`, [entryId])).rows[0]!.n,
      ),
    ).toBe(0);

    const seen = issuer.logins.length;
    const back = await throughIssuer(admin.idp, location, admin.issuerAccount);
    // The provider asked for the credentials again although its session from the sign-in was alive.
    const asked = issuer.logins.slice(seen);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.prompt).toBe('login');
    expect(asked[0]!.reasons).toEqual(expect.arrayContaining(['login_prompt']));
    const done = await callback(admin.browser, back);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/design-history?projectId=${projectId}&signed=1`);

    const list = await json<DesignHistoryList>(await admin.browser.get(`${base()}?projectId=${projectId}`));
    const item = list.items.find((candidate) => candidate.entry?.id === entryId)!;
    expect(item.signatures).toEqual([
      expect.objectContaining({ meaning: 'approval', signer: { id: admin.id, name: 'Ada External' }, valid: true }),
    ]);
    const { rows } = await sql(`select after from domain_events where action = 'signature.signed' and object_id = $1`, [
      item.signatures[0]!.id,
    ]);
    const after = rows[0]!.after as { authentication: { method: string; issuer: string; authenticatedAt: string } };
    expect(after.authentication).toMatchObject({ method: 'issuer', issuer: issuer.origin });
    expect(Date.parse(after.authentication.authenticatedAt) / 1000).toBeGreaterThanOrEqual(startedAt - 1);
    // The signing was used up.
    expect(await count('signing_reauthentications')).toBe(0);
    // Its callback address again (the browser's history): a clear answer, nothing signed, the signer still signed in.
    const signatures = await count('electronic_signatures');
    const replayed = await callback(admin.browser, back);
    expect(replayed.status).toBe(409);
    expect(decoded(replayed.text)).toContain(callbackUsedMessage);
    expect(await count('electronic_signatures')).toBe(signatures);
    expect((await admin.browser.get('/api/auth/me')).status).toBe(200);
    // The same meaning again is refused before the provider is asked.
    expect(await errorOf(await begin(admin, entryId))).toMatchObject({ status: 409, message: alreadySignedMessage });
  });

  it('signs nothing when someone else signs in at the provider, and the signer stays signed in', async () => {
    const entryId = await newEntry('Design review 2');
    const colleague = issuerAccount('Bob Colleague');
    const { location } = await begun(admin, entryId);
    // The colleague signs in at the provider (in a browser without the signer's provider session).
    const refused = await callback(
      admin.browser,
      await throughIssuer(new TestBrowser(issuer.origin), location, colleague),
    );
    expect(refused.status).toBe(400);
    expect(decoded(refused.text)).toContain(reauthenticationOtherAccountMessage);
    expect(
      (await sql(`select count(*)::int as n from electronic_signatures where record_id = $1`, [entryId])).rows[0]!.n,
    ).toBe(0);
    expect((await admin.browser.get('/api/auth/me')).status).toBe(200);
  });

  it('signs nothing when the sign-in is cancelled at the provider', async () => {
    const entryId = await newEntry('Design review 3');
    const { location } = await begun(admin, entryId);
    const state = new URL(location).searchParams.get('state')!;
    const refused = await callback(
      admin.browser,
      `/api/auth/callback?${new URLSearchParams({ error: 'access_denied', state }).toString()}`,
    );
    expect(refused.status).toBe(400);
    expect(decoded(refused.text)).toContain(reauthenticationCancelledMessage);
    expect(
      (await sql(`select count(*)::int as n from electronic_signatures where record_id = $1`, [entryId])).rows[0]!.n,
    ).toBe(0);
  });

  it('signs nothing once the signing has expired, or when another session comes back with it', async () => {
    const entryId = await newEntry('Design review 4');
    const expired = await begun(admin, entryId);
    await sql(`update signing_reauthentications set expires_at = now() - interval '1 minute'`);
    const late = await callback(admin.browser, await throughIssuer(admin.idp, expired.location, admin.issuerAccount));
    expect(late.status).toBe(400);
    expect(decoded(late.text)).toContain(reauthenticationExpiredMessage);

    // The same person in another browser (another session) cannot complete a signing begun here.
    const other = await signedInAgain(admin);
    const begunHere = await begun(admin, entryId);
    const elsewhere = await callback(
      other.browser,
      await throughIssuer(other.idp, begunHere.location, admin.issuerAccount),
    );
    expect(elsewhere.status).toBe(400);
    expect(decoded(elsewhere.text)).toContain(reauthenticationExpiredMessage);
    expect(
      (await sql(`select count(*)::int as n from electronic_signatures where record_id = $1`, [entryId])).rows[0]!.n,
    ).toBe(0);
  });

  it('refuses a stranger to the workspace (404) and stores no signing', async () => {
    const entryId = await newEntry('Design review 5');
    const stranger = await signedInExternally('Eve Stranger');
    const before = await count('signing_reauthentications');
    expect((await begin(stranger, entryId)).status).toBe(404);
    expect(await count('signing_reauthentications')).toBe(before);
  });
});

/** The same person signed in again in a new browser (a second session of theirs). */
async function signedInAgain(person: Signer): Promise<Signer> {
  const browser = new TestBrowser(server.origin);
  const idp = new TestBrowser(issuer.origin);
  const login = await browser.get('/api/auth/login?returnTo=%2F');
  expect(
    (await browser.get(await throughIssuer(idp, login.headers.get('location')!, person.issuerAccount))).status,
  ).toBe(302);
  return { ...person, browser, idp };
}
