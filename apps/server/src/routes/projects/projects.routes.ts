import { projectEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ProjectService } from '../../services/project.service';

export interface ProjectRoutesDeps {
  projects: ProjectService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * Projects of a workspace: the overview's first screen, the list, one project (and its changes: title, question,
 * cohorts), its status, its team and its stats (issue 5, issue 14 item 16).
 */
export async function projectRoutes(app: FastifyInstance, deps: ProjectRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['projects'];
  const pre = { preHandler: deps.authenticated, schema: { tags } };

  route(api, endpoints.list, pre, async (request) =>
    deps.projects.list(currentUser(request).id, request.params.deviceId, request.query),
  );

  // Registered before `…/projects/:projectId`'s routes; Fastify prefers the static segment anyway.
  route(api, endpoints.overview, pre, async (request) =>
    deps.projects.overview(currentUser(request).id, request.params.deviceId, request.query),
  );

  route(api, endpoints.get, pre, async (request) =>
    deps.projects.get(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  route(
    api,
    endpoints.update,
    { ...pre, schema: { tags, summary: 'Change the title and/or the question of interest' } },
    async (request) =>
      deps.projects.update(currentUser(request).id, request.params.deviceId, request.params.projectId, request.body),
  );

  route(
    api,
    endpoints.addCohort,
    { ...pre, schema: { tags, summary: 'Add a ready patient cohort of the workspace' } },
    async (request) =>
      deps.projects.addCohort(
        currentUser(request).id,
        request.params.deviceId,
        request.params.projectId,
        request.body.cohortId,
      ),
  );

  route(
    api,
    endpoints.removeCohort,
    {
      ...pre,
      schema: { tags, summary: 'Remove a patient cohort (refused while rooms of the project show its patients)' },
    },
    async (request) => {
      const { deviceId, projectId, cohortId } = request.params;
      return deps.projects.removeCohort(currentUser(request).id, deviceId, projectId, cohortId);
    },
  );

  route(api, endpoints.changeStatus, pre, async (request) =>
    deps.projects.changeStatus(
      currentUser(request).id,
      request.params.deviceId,
      request.params.projectId,
      request.body.status,
      request.body.reason,
    ),
  );

  route(api, endpoints.team, pre, async (request) =>
    deps.projects.team(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  route(api, endpoints.addMember, pre, async (request, reply) =>
    reply
      .code(201)
      .send(
        await deps.projects.addMember(
          currentUser(request).id,
          request.params.deviceId,
          request.params.projectId,
          request.body.userId,
        ),
      ),
  );

  route(api, endpoints.removeMember, pre, async (request) => {
    const { deviceId, projectId, userId } = request.params;
    return deps.projects.removeMember(currentUser(request).id, deviceId, projectId, userId);
  });

  route(api, endpoints.stats, pre, async (request) =>
    deps.projects.stats(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );
}
