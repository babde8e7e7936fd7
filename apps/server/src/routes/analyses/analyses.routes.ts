import { analysisEndpoints as endpoints, type Analysis } from '@insilico/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { AnalysisService } from '../../services/analysis.service';
import { ServiceError } from '../../services/errors';

export interface AnalysisRoutesDeps {
  analyses: AnalysisService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The revision as an entity tag, so `If-Match` can carry it back. */
function withRevision(reply: FastifyReply, analysis: Analysis): FastifyReply {
  return reply.header('ETag', `"${analysis.revision}"`).header('Cache-Control', 'no-store');
}

/** `If-Match: "3"` (or `W/"3"`, or `3`) → 3; undefined without the header; 400 when it names no revision. */
export function revisionFromIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match?.[1])
    throw new ServiceError(400, 'bad_request', 'If-Match must name one revision of the analysis, e.g. "3".');
  return Number(match[1]);
}

/** Population analyses of a project: list, create, read, change (issue 6 item 5). */
export async function analysisRoutes(app: FastifyInstance, deps: AnalysisRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pre = { preHandler: deps.authenticated, schema: { tags: ['analyses'] } };

  route(api, endpoints.list, pre, async (request) =>
    deps.analyses.list(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  route(api, endpoints.create, pre, async (request, reply) => {
    const { deviceId, projectId } = request.params;
    const analysis = await deps.analyses.create(currentUser(request).id, deviceId, projectId, request.body);
    return withRevision(reply.code(201), analysis).send(analysis);
  });

  route(api, endpoints.get, pre, async (request, reply) => {
    const { deviceId, projectId, analysisId } = request.params;
    const analysis = await deps.analyses.get(currentUser(request).id, deviceId, projectId, analysisId);
    return withRevision(reply, analysis).send(analysis);
  });

  route(api, endpoints.update, pre, async (request, reply) => {
    const { deviceId, projectId, analysisId } = request.params;
    const fromHeader = revisionFromIfMatch(request.headers['if-match']);
    const { revision: fromBody, ...changes } = request.body;
    if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody)
      throw new ServiceError(400, 'bad_request', 'If-Match and the revision field name different revisions.');
    const analysis = await deps.analyses.update(currentUser(request).id, deviceId, projectId, analysisId, {
      ...changes,
      revision: fromBody ?? fromHeader,
    });
    return withRevision(reply, analysis).send(analysis);
  });
}
