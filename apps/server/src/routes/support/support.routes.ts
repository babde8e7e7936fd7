import {
  createSupportRequestSchema,
  pictureQuerySchema,
  supportContextSchema,
  supportInboxQuerySchema,
  supportReplySchema,
  supportRequestListSchema,
  supportRequestParamsSchema,
  supportRequestSchema,
  supportScreenshotSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { SupportService } from '../../services/support.service';
import { sendPicture, uploadOf } from '../pictures/pictures.routes';

export interface SupportRoutesDeps {
  support: SupportService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * Ask support (the drawer and "Your requests" on /help) and the support inbox of support staff.
 * See docs/decisions/support-requests.md.
 */
export async function supportRoutes(app: FastifyInstance, deps: SupportRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['support'];
  const preHandler = deps.authenticated;
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

  api.get(
    '/api/support/me',
    { preHandler, schema: { tags, response: { 200: supportContextSchema } } },
    async (request) => deps.support.context(userId(request)),
  );

  // The screenshot is the raw body (like pictures): its bytes decide its type, never more than 5120 KB is read.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().put(
      '/api/support/screenshot',
      {
        preHandler,
        schema: {
          tags,
          summary: 'Attach a screenshot to the request being written (JPEG or PNG, ≤ 5120 KB, the file as the body)',
          response: { 200: supportScreenshotSchema },
        },
      },
      async (request, reply) => deps.support.uploadScreenshot(userId(request), uploadOf(request, reply)),
    );
  });
  api.delete('/api/support/screenshot', { preHandler, schema: { tags } }, async (request, reply) => {
    await deps.support.discardScreenshot(userId(request));
    return reply.code(204).send();
  });

  api.post(
    '/api/support/requests',
    { preHandler, schema: { tags, body: createSupportRequestSchema, response: { 201: supportRequestSchema } } },
    async (request, reply) => reply.code(201).send(await deps.support.create(userId(request), request.body)),
  );
  api.get(
    '/api/support/requests',
    { preHandler, schema: { tags, response: { 200: supportRequestListSchema } } },
    async (request) => deps.support.listOwn(userId(request)),
  );
  api.get(
    '/api/support/requests/:requestId',
    { preHandler, schema: { tags, params: supportRequestParamsSchema, response: { 200: supportRequestSchema } } },
    async (request) => deps.support.get(userId(request), request.params.requestId),
  );
  api.post(
    '/api/support/requests/:requestId/messages',
    {
      preHandler,
      schema: {
        tags,
        params: supportRequestParamsSchema,
        body: supportReplySchema,
        response: { 200: supportRequestSchema },
      },
    },
    async (request) => deps.support.reply(userId(request), request.params.requestId, request.body.body),
  );
  api.get(
    '/api/support/requests/:requestId/screenshot',
    { preHandler, schema: { tags, params: supportRequestParamsSchema, querystring: pictureQuerySchema } },
    async (request, reply) =>
      sendPicture(
        request,
        reply,
        await deps.support.screenshot(userId(request), request.params.requestId, request.query.size),
        request.query.v,
      ),
  );

  api.get(
    '/api/support/inbox',
    { preHandler, schema: { tags, querystring: supportInboxQuerySchema, response: { 200: supportRequestListSchema } } },
    async (request) => deps.support.inbox(userId(request), request.query.status),
  );
  api.get(
    '/api/support/inbox/:requestId',
    { preHandler, schema: { tags, params: supportRequestParamsSchema, response: { 200: supportRequestSchema } } },
    async (request) => deps.support.inboxRequest(userId(request), request.params.requestId),
  );
  api.post(
    '/api/support/inbox/:requestId/answers',
    {
      preHandler,
      schema: {
        tags,
        params: supportRequestParamsSchema,
        body: supportReplySchema,
        response: { 200: supportRequestSchema },
      },
    },
    async (request) => deps.support.answer(userId(request), request.params.requestId, request.body.body),
  );
  api.post(
    '/api/support/inbox/:requestId/close',
    { preHandler, schema: { tags, params: supportRequestParamsSchema, response: { 200: supportRequestSchema } } },
    async (request) => deps.support.close(userId(request), request.params.requestId),
  );
}
