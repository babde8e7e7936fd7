import { teamEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { TeamService } from '../../services/team.service';

export interface TeamRoutesDeps {
  team: TeamService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The team of a device workspace: list, invite, accept an invitation, approve, change role, remove. */
export async function teamRoutes(app: FastifyInstance, deps: TeamRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pre = { preHandler: deps.authenticated, schema: { tags: ['team'] } };

  route(api, endpoints.list, pre, async (request) => deps.team.list(currentUser(request).id, request.params.deviceId));

  route(api, endpoints.invite, pre, async (request, reply) =>
    reply.code(201).send(await deps.team.invite(currentUser(request), request.params.deviceId, request.body)),
  );

  route(api, endpoints.revoke, pre, async (request, reply) => {
    await deps.team.revoke(currentUser(request).id, request.params.deviceId, request.params.invitationId);
    return reply.code(204).send();
  });

  route(api, endpoints.accept, pre, async (request) =>
    deps.team.accept(currentUser(request), request.body.token, request.ip),
  );

  route(api, endpoints.approve, pre, async (request) =>
    deps.team.approve(currentUser(request).id, request.params.deviceId, request.params.userId),
  );

  route(api, endpoints.changeRole, pre, async (request) =>
    deps.team.changeRole(currentUser(request).id, request.params.deviceId, request.params.userId, request.body.role),
  );

  route(api, endpoints.remove, pre, async (request, reply) => {
    await deps.team.remove(currentUser(request).id, request.params.deviceId, request.params.userId);
    return reply.code(204).send();
  });
}
