import {
  acceptedInvitationSchema,
  acceptInvitationSchema,
  changeRoleSchema,
  deviceParamsSchema,
  invitationParamsSchema,
  invitationSchema,
  inviteSchema,
  memberParamsSchema,
  teamMemberSchema,
  teamSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { TeamService } from '../../services/team.service';

export interface TeamRoutesDeps {
  team: TeamService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The team of a device workspace: list, invite, accept an invitation, approve, change role, remove. */
export async function teamRoutes(app: FastifyInstance, deps: TeamRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['team'];

  api.get(
    '/api/devices/:deviceId/team',
    { preHandler: deps.authenticated, schema: { tags, params: deviceParamsSchema, response: { 200: teamSchema } } },
    async (request) => deps.team.list(currentUser(request).id, request.params.deviceId),
  );

  api.post(
    '/api/devices/:deviceId/invitations',
    {
      preHandler: deps.authenticated,
      schema: { tags, params: deviceParamsSchema, body: inviteSchema, response: { 201: invitationSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await deps.team.invite(currentUser(request), request.params.deviceId, request.body)),
  );

  api.delete(
    '/api/devices/:deviceId/invitations/:invitationId',
    { preHandler: deps.authenticated, schema: { tags, params: invitationParamsSchema } },
    async (request, reply) => {
      await deps.team.revoke(currentUser(request).id, request.params.deviceId, request.params.invitationId);
      return reply.code(204).send();
    },
  );

  api.post(
    '/api/invitations/accept',
    {
      preHandler: deps.authenticated,
      schema: { tags, body: acceptInvitationSchema, response: { 200: acceptedInvitationSchema } },
    },
    async (request) => deps.team.accept(currentUser(request), request.body.token, request.ip),
  );

  api.post(
    '/api/devices/:deviceId/members/:userId/approve',
    {
      preHandler: deps.authenticated,
      schema: { tags, params: memberParamsSchema, response: { 200: teamMemberSchema } },
    },
    async (request) => deps.team.approve(currentUser(request).id, request.params.deviceId, request.params.userId),
  );

  api.patch(
    '/api/devices/:deviceId/members/:userId',
    {
      preHandler: deps.authenticated,
      schema: { tags, params: memberParamsSchema, body: changeRoleSchema, response: { 200: teamMemberSchema } },
    },
    async (request) =>
      deps.team.changeRole(currentUser(request).id, request.params.deviceId, request.params.userId, request.body.role),
  );

  api.delete(
    '/api/devices/:deviceId/members/:userId',
    { preHandler: deps.authenticated, schema: { tags, params: memberParamsSchema } },
    async (request, reply) => {
      await deps.team.remove(currentUser(request).id, request.params.deviceId, request.params.userId);
      return reply.code(204).send();
    },
  );
}
