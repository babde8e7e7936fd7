import { projectCreationEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
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
  const pre = { preHandler: deps.authenticated, schema: { tags: ['project creation'] } };

  route(api, endpoints.create, pre, async (request, reply) =>
    reply
      .code(201)
      .send(await deps.projectCreation.create(currentUser(request).id, request.params.deviceId, request.body)),
  );

  route(api, endpoints.titleCheck, pre, async (request) =>
    deps.projectCreation.checkTitle(currentUser(request).id, request.params.deviceId, request.query.name),
  );

  route(api, endpoints.draft, pre, async (request) =>
    deps.projectDrafts.get(currentUser(request).id, request.params.deviceId),
  );

  route(api, endpoints.saveDraft, pre, async (request) =>
    deps.projectDrafts.save(currentUser(request).id, request.params.deviceId, request.body),
  );

  // An SSM joins the draft checked (issue 18): 409 duplicate, 422 too few patients (the web's dialog) and the rest.
  route(api, endpoints.addDraftSsm, pre, async (request) =>
    deps.projectDrafts.addSsm(currentUser(request).id, request.params.deviceId, request.body),
  );

  route(api, endpoints.discardDraft, pre, async (request, reply) => {
    await deps.projectDrafts.discard(currentUser(request).id, request.params.deviceId);
    return reply.code(204).send();
  });

  route(api, endpoints.questions, pre, async (request) =>
    deps.questions.list(currentUser(request).id, request.params.deviceId),
  );

  route(api, endpoints.createQuestion, pre, async (request, reply) =>
    reply.code(201).send(await deps.questions.create(currentUser(request).id, request.params.deviceId, request.body)),
  );
}
