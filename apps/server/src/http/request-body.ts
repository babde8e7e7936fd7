import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The most of a request's body still read (and discarded) after an answer is ready, so that the client receives
 * the answer instead of a reset connection: twice the largest body the web app sends in one request (an 8 MiB
 * upload chunk), well past the picture limit (5120 KB). Beyond it, or when it takes longer than
 * `unreadBodyMaxMs`, the answer closes the connection: reading more would be worse than the reset.
 */
export const unreadBodyMaxBytes = 16 * 1024 * 1024;
export const unreadBodyMaxMs = 30_000;

/**
 * An upload's body as chunks, for a service that may stop reading early (a refusal): stopping leaves the rest of
 * the body to `finishReadingBody` rather than destroying the request, which would reset the connection before
 * the refusal is sent. Fastify hands no body when a request has none (Content-Length 0).
 */
export async function* requestBody(request: FastifyRequest): AsyncIterable<Uint8Array> {
  const body = request.body as IncomingMessage | undefined;
  if (body) yield* body.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
}

/**
 * An `onSend` hook: an answer sent while the client is still sending the body (a refusal before or while it is
 * read, a 413 above all) waits until the rest has arrived, read and discarded. Closing the connection instead
 * (`Connection: close`, or a destroyed request) resets it while the client is still writing, and many clients
 * then report the reset (EPIPE, ECONNRESET) rather than the answer. Past `unreadBodyMaxBytes` or
 * `unreadBodyMaxMs` the answer goes out at once with `Connection: close`.
 */
export async function finishReadingBody<T>(request: FastifyRequest, reply: FastifyReply, payload: T): Promise<T> {
  const raw = request.raw;
  // `complete`: every byte of the body has arrived (what is left unread is in memory, not on the wire).
  if (raw.complete || raw.readableEnded || raw.destroyed) return payload;
  const declared = Number(request.headers['content-length']);
  if (declared > unreadBodyMaxBytes) {
    reply.header('Connection', 'close');
    return payload;
  }
  if (!(await discardRest(raw))) reply.header('Connection', 'close');
  return payload;
}

/** Reads what is left of a body and drops it; false when it went past the bounds (and was left to the close). */
function discardRest(raw: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let discarded = 0;
    const settle = (allRead: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onEnd);
      raw.off('error', onEnd);
      resolve(allRead);
    };
    const onData = (chunk: Buffer | string) => {
      discarded += chunk.length;
      if (discarded > unreadBodyMaxBytes) settle(false);
    };
    // Also on close and error: the client went away, and there is nobody left to answer cleanly.
    const onEnd = () => settle(true);
    const timer = setTimeout(() => settle(false), unreadBodyMaxMs);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onEnd);
    raw.once('error', onEnd);
    raw.resume();
  });
}
