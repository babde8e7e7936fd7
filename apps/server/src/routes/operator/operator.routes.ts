import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MaintenanceService } from '../../services/maintenance.service';

/**
 * Operator calls for the `npm run maintenance` command while an embedded-database server runs
 * (only one process can open the embedded database). Loopback only, with the token the server
 * wrote into DATA_DIR; never reachable from a browser session.
 */
export async function operatorRoutes(
  app: FastifyInstance,
  deps: { maintenance: MaintenanceService; operatorToken: string },
): Promise<void> {
  const authorised = (request: FastifyRequest) => {
    const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.socket.remoteAddress ?? '');
    const given = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${deps.operatorToken}`);
    return loopback && given.length === expected.length && timingSafeEqual(given, expected);
  };
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/operator/maintenance',
    {
      schema: {
        hide: true,
        body: z.discriminatedUnion('mode', [
          z.object({ mode: z.literal('on'), text: z.string().max(5000) }),
          z.object({ mode: z.literal('off') }),
        ]),
      },
    },
    async (request, reply) => {
      if (!authorised(request))
        return reply.code(403).send({ error: { code: 'forbidden', message: 'Operator token required.' } });
      return request.body.mode === 'on' ? deps.maintenance.switchOn(request.body.text) : deps.maintenance.switchOff();
    },
  );
}
