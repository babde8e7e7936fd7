import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, hstsHeader, inlineScriptHashes, registerSecurityHeaders } from './security-headers';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

async function appFor(publicUrl: string, indexHtml: string | null = null) {
  const app = Fastify();
  registerSecurityHeaders(app, { publicUrl, indexHtml });
  app.get('/page', async () => 'page');
  app.get('/own-policy', async (_request, reply) =>
    reply.header('Content-Security-Policy', "script-src 'none'").send(),
  );
  // Like the OIDC issuer: takes over the Node response, so Fastify's onSend hooks never run.
  app.get('/hijacked', async (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/plain' }).end('raw');
  });
  await app.ready();
  return app;
}

describe('registerSecurityHeaders', () => {
  it('sends Strict-Transport-Security when PUBLIC_URL is https, on hijacked answers too', async () => {
    const app = await appFor('https://workspace.example.com');
    for (const url of ['/page', '/hijacked', '/missing']) {
      const response = await app.inject({ url });
      expect(response.headers['strict-transport-security'], url).toBe(hstsHeader);
      expect(response.headers['content-security-policy'], url).toBe(contentSecurityPolicy(["'self'"]));
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('same-origin');
    }
    expect(hstsHeader).toMatch(/max-age=31536000/);
  });

  it('sends no Strict-Transport-Security when PUBLIC_URL is http', async () => {
    const app = await appFor('http://localhost:3000');
    expect((await app.inject({ url: '/page' })).headers['strict-transport-security']).toBeUndefined();
  });

  it("allows the index page's inline script by its hash, and lets a route send its own policy", async () => {
    const app = await appFor('http://localhost:3000', '<script>start()</script><script src="/a.js"></script>');
    const policy = (await app.inject({ url: '/page' })).headers['content-security-policy'];
    expect(policy).toContain(`script-src 'self' ${sha256('start()')};`);
    expect((await app.inject({ url: '/own-policy' })).headers['content-security-policy']).toBe("script-src 'none'");
  });
});

describe('inlineScriptHashes', () => {
  it('hashes each inline script byte for byte and skips scripts loaded from a file', () => {
    const html = `<head><script>a()</script>\n<script type="module" src="/assets/x.js"></script><SCRIPT nonce="n">\n  b();\n</SCRIPT></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha256('a()'), sha256('\n  b();\n')]);
    expect(inlineScriptHashes('<p>no scripts</p>')).toEqual([]);
  });
});

describe('contentSecurityPolicy', () => {
  it('has the directives of ASVS V3.4 and no inline or eval script', () => {
    const policy = contentSecurityPolicy(["'self'", sha256('x')]);
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      `script-src 'self' ${sha256('x')}`,
    ])
      expect(policy).toContain(directive);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  });
});
