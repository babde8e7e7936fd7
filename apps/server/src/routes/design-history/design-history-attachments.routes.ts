import { designHistoryEndpoints as endpoints, designHistoryFileHashHeader } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestBody } from '../../http/request-body';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { DesignHistoryAttachmentService } from '../../services/design-history-attachments';

export interface DesignHistoryAttachmentRoutesDeps {
  attachments: DesignHistoryAttachmentService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * Files attached to design history entries (issue 20 item 4): upload (POST, the file as the raw body, its name in
 * `?name=`, its type the Content-Type), a finished resumable upload attached (POST, JSON), and download (GET). See
 * docs/decisions/design-history-attachments.md.
 */
export async function designHistoryAttachmentRoutes(
  app: FastifyInstance,
  deps: DesignHistoryAttachmentRoutesDeps,
): Promise<void> {
  route(
    app.withTypeProvider<ZodTypeProvider>(),
    endpoints.attachUpload,
    {
      preHandler: deps.authenticated,
      schema: {
        tags: ['design-history'],
        summary:
          'Attach a finished resumable upload (tus, purpose design_history_attachment, ≤ 1 GB) to an entry nobody has signed; its size and SHA-256 are checked from storage',
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await deps.attachments.attachUpload(
            currentUser(request).id,
            request.params.deviceId,
            request.params.entryId,
            request.body,
          ),
        ),
  );

  await app.register(async (scope) => {
    // Whatever type the client declares, the body reaches the handler as a stream (it is the file).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['design-history'];

    route(
      api,
      endpoints.attach,
      {
        preHandler: deps.authenticated,
        schema: {
          tags,
          summary:
            'Attach a file to an entry nobody has signed (the file as the body, streamed, ≤ 100 MB; kept by its SHA-256)',
        },
      },
      async (request, reply) => {
        const declared = Number(request.headers['content-length']);
        const attached = await deps.attachments.attach(
          currentUser(request).id,
          request.params.deviceId,
          request.params.entryId,
          {
            fileName: request.query.name,
            contentType: request.headers['content-type'],
            declaredBytes: Number.isFinite(declared) ? declared : undefined,
            body: requestBody(request),
          },
        );
        return reply.code(201).send(attached);
      },
    );

    route(
      api,
      endpoints.attachment,
      {
        preHandler: deps.authenticated,
        schema: { tags, summary: 'A file attached to an entry, for whoever may read its project' },
      },
      async (request, reply) => {
        const file = await deps.attachments.download(
          currentUser(request).id,
          request.params.deviceId,
          request.params.entryId,
          request.params.attachmentId,
        );
        return (
          reply
            .header('Cache-Control', 'no-store')
            // Always a download, never shown in the app's origin, whatever the uploader declared.
            .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
            .header('X-Content-Type-Options', 'nosniff')
            .header('Content-Length', String(file.bytes))
            .header(designHistoryFileHashHeader, file.sha256)
            .type(file.contentType)
            .send(file.stream)
        );
      },
    );
  });
}
