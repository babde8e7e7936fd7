import { commentEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { CommentService } from '../../services/comment.service';

export interface CommentRoutesDeps {
  comments: CommentService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The Comments tab of a project: threads, write, edit, delete, and the team one can mention. */
export async function commentRoutes(app: FastifyInstance, deps: CommentRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['comments'];
  const pre = { preHandler: deps.authenticated, schema: { tags } };

  route(
    api,
    endpoints.list,
    {
      ...pre,
      schema: { tags, summary: 'Threads of the project: top-level comments newest first, replies oldest first' },
    },
    async (request) =>
      deps.comments.list(currentUser(request).id, request.params.deviceId, request.params.projectId, request.query),
  );

  route(api, endpoints.mentionable, pre, async (request) =>
    deps.comments.mentionable(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  route(api, endpoints.create, pre, async (request, reply) =>
    reply
      .code(201)
      .send(
        await deps.comments.create(
          currentUser(request).id,
          request.params.deviceId,
          request.params.projectId,
          request.body,
        ),
      ),
  );

  route(api, endpoints.edit, pre, async (request) =>
    deps.comments.edit(
      currentUser(request).id,
      request.params.deviceId,
      request.params.projectId,
      request.params.commentId,
      request.body.body,
    ),
  );

  route(api, endpoints.remove, pre, async (request) =>
    deps.comments.remove(
      currentUser(request).id,
      request.params.deviceId,
      request.params.projectId,
      request.params.commentId,
    ),
  );
}
