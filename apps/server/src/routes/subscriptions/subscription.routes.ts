import { subscriptionEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { SubscriptionService } from '../../services/subscription.service';

/** The plan and seats of a device workspace (/subscriptions); operators change them (operator routes). */
export async function subscriptionRoutes(
  app: FastifyInstance,
  deps: { subscriptions: SubscriptionService; authenticated: ReturnType<typeof requireUser> },
): Promise<void> {
  route(
    app.withTypeProvider<ZodTypeProvider>(),
    endpoints.get,
    { preHandler: deps.authenticated, schema: { tags: ['subscriptions'] } },
    async (request) => deps.subscriptions.get(currentUser(request).id, request.params.deviceId),
  );
}
