import { healthEndpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import type { HealthService } from '../../services/health.service';

/** `GET /api/health`: 200 when the database answers, 503 when it does not. Up during maintenance. */
export async function healthRoutes(app: FastifyInstance, deps: { health: HealthService }): Promise<void> {
  route(
    app.withTypeProvider<ZodTypeProvider>(),
    healthEndpoints.check,
    { schema: { tags: ['operations'] } },
    async (_request, reply) => {
      const health = await deps.health.check();
      return reply
        .code(health.status === 'ok' ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send(health);
    },
  );
}
