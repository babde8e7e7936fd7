import type { FastifyInstance } from 'fastify';

const nullBodyStatuses = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that answers from this process (Fastify's inject) instead of the network. The app
 * reaches its embedded issuer this way, whatever PUBLIC_URL resolves to from inside the host.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    headers.host = url.host;
    headers['x-forwarded-proto'] = url.protocol.replace(':', '');
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(payload ? { payload } : {}),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(key, one);
    }
    const body = nullBodyStatuses.has(response.statusCode) ? null : response.rawPayload;
    return new Response(body, { status: response.statusCode, headers: responseHeaders });
  };
}
