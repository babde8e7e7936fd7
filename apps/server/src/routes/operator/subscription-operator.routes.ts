import { setSubscriptionSchema, subscriptionSchema } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireOperator } from '../../policies/operator';
import type { SubscriptionService } from '../../services/subscription.service';

/**
 * Operator calls for `npm run operator -- workspaces | subscription …` while an embedded-database
 * server runs (loopback and the DATA_DIR token only; see operator.routes.ts).
 */
export async function subscriptionOperatorRoutes(
  app: FastifyInstance,
  deps: { subscriptions: SubscriptionService; operatorToken: string },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireOperator(deps.operatorToken);
  api.get('/api/operator/workspaces', { preHandler, schema: { hide: true } }, async () => ({
    items: await deps.subscriptions.overview(),
  }));
  api.post(
    '/api/operator/subscription',
    { preHandler, schema: { hide: true, body: setSubscriptionSchema, response: { 200: subscriptionSchema } } },
    async (request) => deps.subscriptions.set(request.body),
  );
}
