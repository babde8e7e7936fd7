import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, openSignInPage, signUp, TestBrowser } from '../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';

// A built web app as Vite leaves it: index.html with an inline start-up script, hashed assets and their source maps.
const startUpScript = 'window.__started = true;';
const indexHtml = `<!doctype html><html><head><script>${startUpScript}</script><script type="module" src="/assets/app-1a2b.js"></script></head><body><div id="root"></div></body></html>`;
const webDir = join(tmpdir(), `insilico-web-${randomUUID()}`);
mkdirSync(join(webDir, 'assets'), { recursive: true });
writeFileSync(join(webDir, 'index.html'), indexHtml);
writeFileSync(join(webDir, 'assets', 'app-1a2b.js'), 'console.log("app");\n');
writeFileSync(join(webDir, 'assets', 'app-1a2b.js.map'), '{"version":3,"sources":["src/main.tsx"],"mappings":""}');
writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

const startUpHash = `'sha256-${createHash('sha256').update(startUpScript).digest('base64')}'`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WEB_DIST_DIR: webDir });
});
afterAll(async () => {
  await server?.stop();
  rmSync(webDir, { recursive: true, force: true });
});

function directives(policy: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

/** The headers every answer carries, whoever produced it (routes, static files, the issuer, errors). */
function expectSecurityHeaders(response: Response, what: string): void {
  const policy = directives(response.headers.get('content-security-policy'));
  expect(policy.get('default-src'), what).toEqual(["'self'"]);
  expect(policy.get('object-src'), what).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(policy.get('base-uri'), what).toEqual(["'none'"]);
  const scripts = policy.get('script-src') ?? [];
  expect(scripts.length, what).toBeGreaterThan(0);
  expect(scripts, what).not.toContain("'unsafe-inline'");
  expect(scripts, what).not.toContain("'unsafe-eval'");
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('same-origin');
  // PUBLIC_URL is http here: no Strict-Transport-Security (security-headers.test.ts covers https).
  expect(response.headers.get('strict-transport-security'), what).toBeNull();
}

/** Every path the web app's route files name (client routing: the server answers each with index.html). */
function webPagePaths(): string[] {
  const src = join(dirname(fileURLToPath(import.meta.url)), '../../../web/src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('routes.tsx'));
  expect(files.length).toBeGreaterThan(5);
  const paths = new Set<string>(['/']);
  for (const file of files) {
    for (const [, path] of readFileSync(join(src, file), 'utf8').matchAll(/\bpath: '([^']*)'/g)) {
      if (!path || path === '*') continue;
      paths.add(`/${path.replace(/^\//, '').replace(/:\w+/g, randomUUID())}`);
    }
  }
  return [...paths];
}

describe('security headers', () => {
  it('are sent on every route of the OpenAPI document', async () => {
    const browser = new TestBrowser(server.origin);
    const document = (await (await browser.get('/api/docs/json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(routes.length).toBeGreaterThan(50);
    for (const { method, path } of routes) {
      const url = path.replace(/\{\w+\}/g, randomUUID());
      const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
      const response = await browser.request(url, {
        method,
        ...(hasBody ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
      });
      await response.body?.cancel();
      expectSecurityHeaders(response, `${method} ${path} (${response.status})`);
    }
  });

  it("are sent on every page, the web app's with its start-up script allowed by hash", async () => {
    const browser = new TestBrowser(server.origin);
    for (const path of [...webPagePaths(), '/no/such/page']) {
      const response = await browser.get(path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toBe(indexHtml);
      expectSecurityHeaders(response, path);
      expect(directives(response.headers.get('content-security-policy')).get('script-src'), path).toEqual([
        "'self'",
        startUpHash,
      ]);
    }
    for (const path of [
      '/maintenance.html',
      '/api/docs',
      '/api/docs/static/index.html',
      '/api/no-such-route',
      '/favicon.svg',
      '/assets/app-1a2b.js',
      '/_fonts/nunito-400.woff2',
      '/oidc/.well-known/openid-configuration',
      '/oidc/account/password',
    ]) {
      const response = await browser.get(path);
      await response.body?.cancel();
      expectSecurityHeaders(response, `${path} (${response.status})`);
    }
  });

  it("are sent on the issuer's pages; the sign-out page allows its one script by nonce", async () => {
    const browser = new TestBrowser(server.origin);
    const uid = await openSignInPage(browser);
    const signInPage = await browser.get(`/oidc/interaction/${uid}`);
    expectSecurityHeaders(signInPage, 'sign-in page');
    expect(directives(signInPage.headers.get('content-security-policy')).get('script-src')).toEqual(["'none'"]);
    const signedIn = new TestBrowser(server.origin);
    await signUp(signedIn, newAccount());
    const logout = await signedIn.request('/api/auth/logout', { method: 'POST' });
    const end = new URL(logout.headers.get('location')!, server.origin);
    const confirm = await signedIn.get(`${end.pathname}${end.search}`);
    expectSecurityHeaders(confirm, 'sign-out page');
    const nonce = /<script nonce="([^"]+)"/.exec(await confirm.text())?.[1];
    expect(nonce).toBeTruthy();
    expect(directives(confirm.headers.get('content-security-policy')).get('script-src')).toEqual([`'nonce-${nonce}'`]);
  });
});

describe('source maps', () => {
  it('are not served, while the files they describe are', async () => {
    const browser = new TestBrowser(server.origin);
    expect((await browser.get('/assets/app-1a2b.js')).status).toBe(200);
    for (const path of ['/assets/app-1a2b.js.map', '/assets/app-1a2b.js.map?v=1', '/assets/other.js.map']) {
      const response = await browser.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('mappings');
    }
  });
});
