import { profileSchema, updateProfileSchema } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ProfileService } from '../../services/profile.service';

export interface ProfileRoutesDeps {
  profiles: ProfileService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The signed-in person's profile (/my-account): read, and change full name and job title. */
export async function profileRoutes(app: FastifyInstance, deps: ProfileRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['profile'];

  api.get(
    '/api/me/profile',
    { preHandler: deps.authenticated, schema: { tags, response: { 200: profileSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.profiles.get(currentUser(request));
    },
  );

  api.patch(
    '/api/me/profile',
    {
      preHandler: deps.authenticated,
      schema: { tags, body: updateProfileSchema, response: { 200: profileSchema } },
    },
    async (request) => deps.profiles.update(currentUser(request).id, request.body),
  );
}
