import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import { addProjectCohortSchema, projectCohortParamsSchema, updateProjectSchema } from './project-editing';
import {
  addProjectMemberSchema,
  changeProjectStatusSchema,
  projectListQuerySchema,
  projectListSchema,
  projectMemberParamsSchema,
  projectOverviewQuerySchema,
  projectOverviewSchema,
  projectParamsSchema,
  projectSchema,
  projectStatsSchema,
  projectTeamSchema,
} from './projects';

const projectsPath = '/api/devices/:deviceId/projects';
const projectPath = `${projectsPath}/:projectId` as const;

/**
 * The projects API of a workspace (docs/decisions/endpoints-in-contracts.md); in a file of its own because it takes
 * the schemas of `projects.ts` and `project-editing.ts`, which imports `projects.ts`.
 */
export const projectEndpoints = {
  list: endpoint({
    method: 'GET',
    path: projectsPath,
    params: deviceParamsSchema,
    query: projectListQuerySchema,
    response: { 200: projectListSchema },
  }),
  /** The overview's first screen: every stage group's count and first page. */
  overview: endpoint({
    method: 'GET',
    path: `${projectsPath}/overview`,
    params: deviceParamsSchema,
    query: projectOverviewQuerySchema,
    response: { 200: projectOverviewSchema },
  }),
  get: endpoint({ method: 'GET', path: projectPath, params: projectParamsSchema, response: { 200: projectSchema } }),
  update: endpoint({
    method: 'PATCH',
    path: projectPath,
    params: projectParamsSchema,
    body: updateProjectSchema,
    response: { 200: projectSchema },
  }),
  addCohort: endpoint({
    method: 'POST',
    path: `${projectPath}/cohorts`,
    params: projectParamsSchema,
    body: addProjectCohortSchema,
    response: { 200: projectSchema },
  }),
  removeCohort: endpoint({
    method: 'DELETE',
    path: `${projectPath}/cohorts/:cohortId`,
    params: projectCohortParamsSchema,
    response: { 200: projectSchema },
  }),
  changeStatus: endpoint({
    method: 'POST',
    path: `${projectPath}/status`,
    params: projectParamsSchema,
    body: changeProjectStatusSchema,
    response: { 200: projectSchema },
  }),
  team: endpoint({
    method: 'GET',
    path: `${projectPath}/team`,
    params: projectParamsSchema,
    response: { 200: projectTeamSchema },
  }),
  addMember: endpoint({
    method: 'POST',
    path: `${projectPath}/team`,
    params: projectParamsSchema,
    body: addProjectMemberSchema,
    response: { 201: projectTeamSchema },
  }),
  removeMember: endpoint({
    method: 'DELETE',
    path: `${projectPath}/team/:userId`,
    params: projectMemberParamsSchema,
    response: { 200: projectTeamSchema },
  }),
  /** The project's figures (cohorts, versions, rooms, simulations, team). */
  stats: endpoint({
    method: 'GET',
    path: `${projectPath}/stats`,
    params: projectParamsSchema,
    response: { 200: projectStatsSchema },
  }),
};
