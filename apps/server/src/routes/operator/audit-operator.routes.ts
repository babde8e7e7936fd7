import { auditExportQuerySchema, auditVerdictSchema } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireOperator } from '../../policies/operator';
import type { AuditService } from '../../services/audit.service';

/**
 * `npm run audit` against the running embedded server (only one process can open its database): the verifier of the
 * whole chain and the export of every row (CSV, JSON or the inspector's ZIP). Loopback and the DATA_DIR token only (see operator.routes.ts).
 */
export async function auditOperatorRoutes(
  app: FastifyInstance,
  deps: { audit: AuditService; operatorToken: string },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireOperator(deps.operatorToken);
  api.get(
    '/api/operator/audit/verify',
    { preHandler, schema: { hide: true, response: { 200: auditVerdictSchema } } },
    () => deps.audit.verify(),
  );
  api.get(
    '/api/operator/audit/export',
    { preHandler, schema: { hide: true, querystring: auditExportQuerySchema } },
    async (request) => {
      const { format } = request.query;
      // The ZIP travels as base64 in the JSON answer the CLI reads.
      if (format === 'zip') return { body: Buffer.from(await deps.audit.bundle(null)).toString('base64') };
      return { body: await deps.audit.export(null, format) };
    },
  );
}
