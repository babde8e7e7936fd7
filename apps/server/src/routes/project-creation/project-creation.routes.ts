import {
  createdProjectSchema,
  createProjectSchema,
  createQuestionSchema,
  createSsmSchema,
  deviceParamsSchema,
  projectDraftSchema,
  projectDraftStateSchema,
  projectTitleCheckQuerySchema,
  projectTitleCheckSchema,
  questionListSchema,
  questionSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ProjectCreationService } from '../../services/project-creation.service';
import type { ProjectDraftService } from '../../services/project-draft.service';
import type { QuestionService } from '../../services/question.service';

export interface ProjectCreationRoutesDeps {
  projectCreation: ProjectCreationService;
  projectDrafts: ProjectDraftService;
  questions: QuestionService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The project creation wizard: create a project, its server-side draft, the title check, questions of interest. */
export async function projectCreationRoutes(app: FastifyInstance, deps: ProjectCreationRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['project creation'];
  const device = '/api/devices/:deviceId';
  const pre = { preHandler: deps.authenticated };

  api.post(
    `${device}/projects`,
    {
      ...pre,
      schema: { tags, params: deviceParamsSchema, body: createProjectSchema, response: { 201: createdProjectSchema } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await deps.projectCreation.create(currentUser(request).id, request.params.deviceId, request.body)),
  );

  api.get(
    `${device}/project-title-check`,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        querystring: projectTitleCheckQuerySchema,
        response: { 200: projectTitleCheckSchema },
      },
    },
    async (request) =>
      deps.projectCreation.checkTitle(currentUser(request).id, request.params.deviceId, request.query.name),
  );

  api.get(
    `${device}/project-draft`,
    { ...pre, schema: { tags, params: deviceParamsSchema, response: { 200: projectDraftSchema } } },
    async (request) => deps.projectDrafts.get(currentUser(request).id, request.params.deviceId),
  );

  api.put(
    `${device}/project-draft`,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        body: projectDraftStateSchema,
        response: { 200: projectDraftSchema },
      },
    },
    async (request) => deps.projectDrafts.save(currentUser(request).id, request.params.deviceId, request.body),
  );

  // An SSM joins the draft checked (issue 18): 409 duplicate, 422 too few patients (the web's dialog) and the rest.
  api.post(
    `${device}/project-draft/ssms`,
    {
      ...pre,
      schema: { tags, params: deviceParamsSchema, body: createSsmSchema, response: { 200: projectDraftSchema } },
    },
    async (request) => deps.projectDrafts.addSsm(currentUser(request).id, request.params.deviceId, request.body),
  );

  api.delete(
    `${device}/project-draft`,
    { ...pre, schema: { tags, params: deviceParamsSchema } },
    async (request, reply) => {
      await deps.projectDrafts.discard(currentUser(request).id, request.params.deviceId);
      return reply.code(204).send();
    },
  );

  api.get(
    `${device}/questions-of-interest`,
    { ...pre, schema: { tags, params: deviceParamsSchema, response: { 200: questionListSchema } } },
    async (request) => deps.questions.list(currentUser(request).id, request.params.deviceId),
  );

  api.post(
    `${device}/questions-of-interest`,
    {
      ...pre,
      schema: { tags, params: deviceParamsSchema, body: createQuestionSchema, response: { 201: questionSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await deps.questions.create(currentUser(request).id, request.params.deviceId, request.body)),
  );
}
