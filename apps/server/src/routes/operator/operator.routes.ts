import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outboxQuerySchema, outboxSchema, text } from '@insilico/contracts';
import type { MailService } from '../../services/mail.service';
import type { MaintenanceService } from '../../services/maintenance.service';
import { requireOperator } from '../../policies/operator';

/**
 * Operator calls for the `npm run maintenance` and `npm run outbox` commands while an
 * embedded-database server runs (only one process can open the embedded database). Loopback only,
 * with the token the server wrote into DATA_DIR; never reachable from a browser session.
 */
export async function operatorRoutes(
  app: FastifyInstance,
  deps: { maintenance: MaintenanceService; mail: MailService; operatorToken: string },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireOperator(deps.operatorToken);
  api.post(
    '/api/operator/maintenance',
    {
      preHandler,
      schema: {
        hide: true,
        body: z.discriminatedUnion('mode', [
          z.object({ mode: z.literal('on'), text: text().max(5000) }),
          z.object({ mode: z.literal('off') }),
        ]),
      },
    },
    async (request) =>
      request.body.mode === 'on' ? deps.maintenance.switchOn(request.body.text) : deps.maintenance.switchOff(),
  );

  // The embedded default sends no mail: this is how operators (and journeys) read invitation links.
  api.get(
    '/api/operator/outbox',
    { preHandler, schema: { hide: true, querystring: outboxQuerySchema, response: { 200: outboxSchema } } },
    async (request) => ({ items: await deps.mail.outbox(request.query.limit, request.query.to) }),
  );
}
