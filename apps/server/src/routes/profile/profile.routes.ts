import { profileEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ProfileService } from '../../services/profile.service';

export interface ProfileRoutesDeps {
  profiles: ProfileService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The signed-in person's profile (/my-account): read, and change full name and job title. */
export async function profileRoutes(app: FastifyInstance, deps: ProfileRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pre = { preHandler: deps.authenticated, schema: { tags: ['profile'] } };

  route(api, endpoints.get, pre, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return deps.profiles.get(currentUser(request));
  });

  route(api, endpoints.update, pre, async (request) => deps.profiles.update(currentUser(request).id, request.body));
}
