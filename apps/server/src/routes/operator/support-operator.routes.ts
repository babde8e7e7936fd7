import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../policies/operator';
import type { SupportStaffService } from '../../services/support-staff.service';

/**
 * Operator calls for `npm run operator -- support-staff …` while an embedded-database server runs:
 * the support-staff flag is set here (loopback and the DATA_DIR token only), never through the API.
 */
export async function supportOperatorRoutes(
  app: FastifyInstance,
  deps: { supportStaff: SupportStaffService; operatorToken: string },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireOperator(deps.operatorToken);
  api.get('/api/operator/support-staff', { preHandler, schema: { hide: true } }, async () => ({
    items: await deps.supportStaff.list(),
  }));
  api.post(
    '/api/operator/support-staff',
    { preHandler, schema: { hide: true, body: z.object({ email: z.email(), isSupport: z.boolean() }) } },
    async (request) => ({ items: await deps.supportStaff.set(request.body.email, request.body.isSupport) }),
  );
}
