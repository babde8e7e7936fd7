import { auditEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ActivityService } from '../../services/activity.service';
import type { AuditService } from '../../services/audit.service';

export interface AuditRoutesDeps {
  audit: AuditService;
  activity: ActivityService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * The regulated record (issue 20): the activity feed of a workspace, and for its admins the audit trail's verifier
 * and the export for inspectors (CSV or JSON with the chain).
 */
export async function auditRoutes(app: FastifyInstance, deps: AuditRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pre = { preHandler: deps.authenticated };

  route(api, endpoints.activity, { ...pre, schema: { tags: ['activity'] } }, async (request) =>
    deps.activity.list(currentUser(request).id, request.params.deviceId, request.query),
  );

  route(api, endpoints.verify, { ...pre, schema: { tags: ['audit'] } }, async (request) =>
    deps.audit.verifyFor(currentUser(request).id, request.params.deviceId),
  );

  route(api, endpoints.export, { ...pre, schema: { tags: ['audit'] } }, async (request, reply) => {
    const { format } = request.query;
    const userId = currentUser(request).id;
    const body =
      format === 'zip'
        ? Buffer.from(await deps.audit.bundleFor(userId, request.params.deviceId))
        : await deps.audit.exportFor(userId, request.params.deviceId, format);
    const day = new Date().toISOString().slice(0, 10);
    const types = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8', zip: 'application/zip' };
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="audit-trail-${day}.${format}"`)
      .type(types[format])
      .send(body);
  });
}
