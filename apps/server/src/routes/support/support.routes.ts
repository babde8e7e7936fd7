import { supportEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
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
  const pre = { preHandler: deps.authenticated, schema: { tags } };
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

  route(api, endpoints.context, pre, async (request) => deps.support.context(userId(request)));

  // The screenshot is the raw body (like pictures): its bytes decide its type, never more than 5120 KB is read.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    route(
      scope.withTypeProvider<ZodTypeProvider>(),
      endpoints.uploadScreenshot,
      {
        preHandler: deps.authenticated,
        schema: {
          tags,
          summary: 'Attach a screenshot to the request being written (JPEG or PNG, ≤ 5120 KB, the file as the body)',
        },
      },
      async (request) => deps.support.uploadScreenshot(userId(request), uploadOf(request)),
    );
  });
  route(api, endpoints.discardScreenshot, pre, async (request, reply) => {
    await deps.support.discardScreenshot(userId(request));
    return reply.code(204).send();
  });

  route(api, endpoints.create, pre, async (request, reply) =>
    reply.code(201).send(await deps.support.create(userId(request), request.body)),
  );
  route(api, endpoints.listOwn, pre, async (request) => deps.support.listOwn(userId(request)));
  route(api, endpoints.get, pre, async (request) => deps.support.get(userId(request), request.params.requestId));
  route(api, endpoints.reply, pre, async (request) =>
    deps.support.reply(userId(request), request.params.requestId, request.body.body),
  );
  route(api, endpoints.screenshot, pre, async (request, reply) =>
    sendPicture(
      request,
      reply,
      await deps.support.screenshot(userId(request), request.params.requestId, request.query.size),
      request.query.v,
    ),
  );

  route(api, endpoints.inbox, pre, async (request) => deps.support.inbox(userId(request), request.query.status));
  route(api, endpoints.inboxRequest, pre, async (request) =>
    deps.support.inboxRequest(userId(request), request.params.requestId),
  );
  route(api, endpoints.answer, pre, async (request) =>
    deps.support.answer(userId(request), request.params.requestId, request.body.body),
  );
  route(api, endpoints.close, pre, async (request) => deps.support.close(userId(request), request.params.requestId));
}
