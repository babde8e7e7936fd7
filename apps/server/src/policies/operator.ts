import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

/**
 * preHandler of the operator routes: only from loopback and only with the token the server wrote
 * into DATA_DIR (server.json), so a browser session can never reach them. 403 otherwise.
 */
export function requireOperator(operatorToken: string) {
  const expected = Buffer.from(`Bearer ${operatorToken}`);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    const fromLoopback = loopback.includes(request.socket.remoteAddress ?? '');
    if (!fromLoopback || given.length !== expected.length || !timingSafeEqual(given, expected))
      return reply.code(403).send({ error: { code: 'forbidden', message: 'Operator token required.' } });
  };
}
