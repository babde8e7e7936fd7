import {
  commentListQuerySchema,
  commentPageSchema,
  commentSchema,
  createCommentSchema,
  editCommentSchema,
  mentionableSchema,
  projectCommentParamsSchema,
  projectCommentsParamsSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
  const base = '/api/devices/:deviceId/projects/:projectId/comments';
  const pre = { preHandler: deps.authenticated };

  api.get(
    base,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Threads of the project: top-level comments newest first, replies oldest first',
        params: projectCommentsParamsSchema,
        querystring: commentListQuerySchema,
        response: { 200: commentPageSchema },
      },
    },
    async (request) =>
      deps.comments.list(currentUser(request).id, request.params.deviceId, request.params.projectId, request.query),
  );

  api.get(
    `${base}/mentionable`,
    { ...pre, schema: { tags, params: projectCommentsParamsSchema, response: { 200: mentionableSchema } } },
    async (request) =>
      deps.comments.mentionable(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  api.post(
    base,
    {
      ...pre,
      schema: {
        tags,
        params: projectCommentsParamsSchema,
        body: createCommentSchema,
        response: { 201: commentSchema },
      },
    },
    async (request, reply) =>
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

  api.patch(
    `${base}/:commentId`,
    {
      ...pre,
      schema: { tags, params: projectCommentParamsSchema, body: editCommentSchema, response: { 200: commentSchema } },
    },
    async (request) =>
      deps.comments.edit(
        currentUser(request).id,
        request.params.deviceId,
        request.params.projectId,
        request.params.commentId,
        request.body.body,
      ),
  );

  api.delete(
    `${base}/:commentId`,
    { ...pre, schema: { tags, params: projectCommentParamsSchema, response: { 200: commentSchema } } },
    async (request) =>
      deps.comments.remove(
        currentUser(request).id,
        request.params.deviceId,
        request.params.projectId,
        request.params.commentId,
      ),
  );
}
