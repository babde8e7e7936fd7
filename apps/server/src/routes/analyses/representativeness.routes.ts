import { analysisEndpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { RepresentativenessService } from '../../services/representativeness.service';

export interface RepresentativenessRoutesDeps {
  representativeness: RepresentativenessService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Compares an analysis' cohort with a reference population the caller sends (issue 23); stores nothing. */
export async function representativenessRoutes(
  app: FastifyInstance,
  deps: RepresentativenessRoutesDeps,
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  route(
    api,
    analysisEndpoints.representativeness,
    {
      preHandler: deps.authenticated,
      // A 20,000-patient reference CSV is a few MB.
      bodyLimit: 6 * 1024 * 1024,
      schema: { tags: ['analyses'] },
    },
    async (request) => {
      const { deviceId, projectId, analysisId } = request.params;
      return deps.representativeness.compare(currentUser(request).id, deviceId, projectId, analysisId, request.body);
    },
  );
}
