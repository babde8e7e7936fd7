import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The security headers of every answer (OWASP ASVS 5.0 V3.4; docs/decisions/security-headers.md): one policy for
 * the web app, the API, the docs and the server's own pages. Pages that carry an inline script of their own (the
 * issuer's sign-out page) send a policy with their nonce instead.
 */

/**
 * The policy with its script sources: the web app's are `'self'` and the hash of its start-up script, a
 * server-rendered page's are `'none'` or the nonce of its one script.
 */
export function contentSecurityPolicy(
  scriptSources: readonly string[],
  /** Origins the web app may also send requests to: the object storage browsers upload to (issue 19). */
  connectSources: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSources.join(' ')}`,
    // MUI (emotion) writes <style> elements while the app runs, and the server's pages carry their styles inline.
    // Styles cannot run code, and img-src/font-src/connect-src keep a smuggled style from loading from elsewhere.
    "style-src 'self' 'unsafe-inline'",
    // data: for icons and chart exports, blob: for screenshot previews and the textures of the 3D models.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "worker-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** `'sha256-…'` of each inline `<script>` of a page (those with a `src` load a file of the site instead). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc\s*=/i.test(attributes)) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

export interface SecurityHeaderOptions {
  /** PUBLIC_URL: Strict-Transport-Security is sent when it is https. */
  publicUrl: string;
  /** The web app's index.html as served (its start-up script is allowed by hash), or null when there is none. */
  indexHtml: string | null;
  /** Origins of the object storage browsers upload to directly (none with the filesystem store). */
  connectSources?: readonly string[];
}

export const hstsHeader = 'max-age=31536000; includeSubDomains';

/**
 * One onRequest hook writes the headers straight onto the Node response, so they reach also the answers that skip
 * Fastify's reply (the OIDC issuer's, which takes over the response); a header a route sets itself (a page's own
 * policy) replaces them.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const headers: [string, string][] = [
    [
      'Content-Security-Policy',
      contentSecurityPolicy(
        ["'self'", ...(options.indexHtml ? inlineScriptHashes(options.indexHtml) : [])],
        options.connectSources,
      ),
    ],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'same-origin'],
  ];
  if (new URL(options.publicUrl).protocol === 'https:') headers.push(['Strict-Transport-Security', hstsHeader]);
  app.addHook('onRequest', async (_request, reply) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
  });
}
