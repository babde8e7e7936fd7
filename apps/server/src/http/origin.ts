import type { FastifyRequest } from 'fastify';

/**
 * True when a request comes from a page of our own origin: the browser says so with
 * `Sec-Fetch-Site: same-origin`, or the `Origin` header equals the public origin. A request with
 * neither (or a foreign one) is not trusted to change state: this replaces CSRF tokens.
 */
export function isSameOriginRequest(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin !== undefined) return origin === publicOrigin;
  return site === 'same-origin';
}

export const stateChangingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
