import { deviceParamsSchema, subscriptionSchema } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { SubscriptionService } from '../../services/subscription.service';

/** The plan and seats of a device workspace (/subscriptions); operators change them (operator routes). */
export async function subscriptionRoutes(
  app: FastifyInstance,
  deps: { subscriptions: SubscriptionService; authenticated: ReturnType<typeof requireUser> },
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/devices/:deviceId/subscription',
    {
      preHandler: deps.authenticated,
      schema: { tags: ['subscriptions'], params: deviceParamsSchema, response: { 200: subscriptionSchema } },
    },
    async (request) => deps.subscriptions.get(currentUser(request).id, request.params.deviceId),
  );
}
