import {
  onboardingCompleteSchema,
  onboardingSchema,
  onboardingStateSchema,
  saveOnboardingSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { OnboardingService } from '../../services/onboarding.service';

export interface OnboardingRoutesDeps {
  onboarding: OnboardingService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The onboarding state (saved after every step) and its completion into a workspace. */
export async function onboardingRoutes(app: FastifyInstance, deps: OnboardingRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['onboarding'];

  api.get(
    '/api/onboarding',
    { preHandler: deps.authenticated, schema: { tags, response: { 200: onboardingSchema } } },
    async (request) => deps.onboarding.get(currentUser(request)),
  );

  api.put(
    '/api/onboarding',
    {
      preHandler: deps.authenticated,
      schema: { tags, body: saveOnboardingSchema, response: { 200: onboardingStateSchema } },
    },
    async (request) => deps.onboarding.save(currentUser(request), request.body),
  );

  api.post(
    '/api/onboarding/complete',
    { preHandler: deps.authenticated, schema: { tags, response: { 201: onboardingCompleteSchema } } },
    async (request, reply) => reply.code(201).send(await deps.onboarding.complete(currentUser(request))),
  );
}
