import { onboardingEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { OnboardingService } from '../../services/onboarding.service';

export interface OnboardingRoutesDeps {
  onboarding: OnboardingService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The onboarding state (saved after every step) and its completion into a workspace. */
export async function onboardingRoutes(app: FastifyInstance, deps: OnboardingRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pre = { preHandler: deps.authenticated, schema: { tags: ['onboarding'] } };

  route(api, endpoints.get, pre, async (request) => deps.onboarding.get(currentUser(request)));

  route(api, endpoints.save, pre, async (request) => deps.onboarding.save(currentUser(request), request.body));

  route(api, endpoints.complete, pre, async (request, reply) =>
    reply.code(201).send(await deps.onboarding.complete(currentUser(request))),
  );
}
