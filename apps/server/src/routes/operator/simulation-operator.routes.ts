import { simulationTestResolutionSchema } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireOperator } from '../../policies/operator';
import type { SimulationService } from '../../services/simulation.service';

/**
 * The operator's switch of the seconds-long 'test' simulation resolution per workspace (journeys, demonstrations),
 * loopback and the DATA_DIR token only (see operator.routes.ts): people never reach it.
 * See docs/decisions/simulations-pages.md.
 */
export async function simulationOperatorRoutes(
  app: FastifyInstance,
  deps: { simulations: SimulationService; operatorToken: string },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireOperator(deps.operatorToken);
  api.post(
    '/api/operator/simulation-test-resolution',
    { preHandler, schema: { hide: true, body: simulationTestResolutionSchema } },
    async (request) => deps.simulations.setTestResolution(request.body.deviceId, request.body.enabled),
  );
}
