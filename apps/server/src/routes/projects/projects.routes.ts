import {
  addProjectCohortSchema,
  addProjectMemberSchema,
  changeProjectStatusSchema,
  deviceParamsSchema,
  projectListQuerySchema,
  projectListSchema,
  projectCohortParamsSchema,
  projectMemberParamsSchema,
  projectOverviewQuerySchema,
  projectOverviewSchema,
  projectParamsSchema,
  projectSchema,
  projectStatsSchema,
  projectTeamSchema,
  updateProjectSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
  const base = '/api/devices/:deviceId/projects';
  const one = `${base}/:projectId`;
  const pre = { preHandler: deps.authenticated };

  api.get(
    base,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        querystring: projectListQuerySchema,
        response: { 200: projectListSchema },
      },
    },
    async (request) => deps.projects.list(currentUser(request).id, request.params.deviceId, request.query),
  );

  // Registered before `${base}/:projectId`'s routes; Fastify prefers the static segment anyway.
  api.get(
    `${base}/overview`,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        querystring: projectOverviewQuerySchema,
        response: { 200: projectOverviewSchema },
      },
    },
    async (request) => deps.projects.overview(currentUser(request).id, request.params.deviceId, request.query),
  );

  api.get(
    one,
    { ...pre, schema: { tags, params: projectParamsSchema, response: { 200: projectSchema } } },
    async (request) => deps.projects.get(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  api.patch(
    one,
    {
      ...pre,
      schema: {
        tags,
        params: projectParamsSchema,
        body: updateProjectSchema,
        response: { 200: projectSchema },
        summary: 'Change the title and/or the question of interest',
      },
    },
    async (request) =>
      deps.projects.update(currentUser(request).id, request.params.deviceId, request.params.projectId, request.body),
  );

  api.post(
    `${one}/cohorts`,
    {
      ...pre,
      schema: {
        tags,
        params: projectParamsSchema,
        body: addProjectCohortSchema,
        response: { 200: projectSchema },
        summary: 'Add a ready patient cohort of the workspace',
      },
    },
    async (request) =>
      deps.projects.addCohort(
        currentUser(request).id,
        request.params.deviceId,
        request.params.projectId,
        request.body.cohortId,
      ),
  );

  api.delete(
    `${one}/cohorts/:cohortId`,
    {
      ...pre,
      schema: {
        tags,
        params: projectCohortParamsSchema,
        response: { 200: projectSchema },
        summary: 'Remove a patient cohort (refused while rooms of the project show its patients)',
      },
    },
    async (request) => {
      const { deviceId, projectId, cohortId } = request.params;
      return deps.projects.removeCohort(currentUser(request).id, deviceId, projectId, cohortId);
    },
  );

  api.post(
    `${one}/status`,
    {
      ...pre,
      schema: { tags, params: projectParamsSchema, body: changeProjectStatusSchema, response: { 200: projectSchema } },
    },
    async (request) =>
      deps.projects.changeStatus(
        currentUser(request).id,
        request.params.deviceId,
        request.params.projectId,
        request.body.status,
        request.body.reason,
      ),
  );

  api.get(
    `${one}/team`,
    { ...pre, schema: { tags, params: projectParamsSchema, response: { 200: projectTeamSchema } } },
    async (request) => deps.projects.team(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  api.post(
    `${one}/team`,
    {
      ...pre,
      schema: { tags, params: projectParamsSchema, body: addProjectMemberSchema, response: { 201: projectTeamSchema } },
    },
    async (request, reply) =>
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

  api.delete(
    `${one}/team/:userId`,
    { ...pre, schema: { tags, params: projectMemberParamsSchema, response: { 200: projectTeamSchema } } },
    async (request) => {
      const { deviceId, projectId, userId } = request.params;
      return deps.projects.removeMember(currentUser(request).id, deviceId, projectId, userId);
    },
  );

  api.get(
    `${one}/stats`,
    { ...pre, schema: { tags, params: projectParamsSchema, response: { 200: projectStatsSchema } } },
    async (request) => deps.projects.stats(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );
}
