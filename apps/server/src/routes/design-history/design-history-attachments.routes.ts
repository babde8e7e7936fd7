import type { Readable } from 'node:stream';
import {
  attachmentMaxBytes,
  attachmentTooBigMessage,
  attachmentUploadQuerySchema,
  designHistoryAttachmentParamsSchema,
  designHistoryAttachmentSchema,
  designHistoryEntryParamsSchema,
  designHistoryFileHashHeader,
} from '@insilico/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { DesignHistoryAttachmentService } from '../../services/design-history-attachments';
import { ServiceError } from '../../services/errors';
import { readUpload } from '../../services/picture-upload';

export interface DesignHistoryAttachmentRoutesDeps {
  attachments: DesignHistoryAttachmentService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The uploaded file's bytes, read when the service asks (after its checks), never more than the limit. */
function attachedBytes(request: FastifyRequest, reply: FastifyReply): () => Promise<Uint8Array> {
  return async () => {
    const body = request.body as Readable | undefined;
    if (!body) return new Uint8Array(0);
    const declared = Number(request.headers['content-length']);
    try {
      return await readUpload(body, Number.isFinite(declared) ? declared : undefined, attachmentMaxBytes);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 413) {
        // The rest of an oversized body is not wanted: close the connection after the answer.
        reply.header('Connection', 'close');
        throw new ServiceError(413, 'attachment_too_big', attachmentTooBigMessage);
      }
      throw error;
    }
  };
}

/**
 * Files attached to design history entries (issue 20 item 4): upload (POST, the file as the raw body, its name in
 * `?name=`, its type the Content-Type) and download (GET). See docs/decisions/design-history-attachments.md.
 */
export async function designHistoryAttachmentRoutes(
  app: FastifyInstance,
  deps: DesignHistoryAttachmentRoutesDeps,
): Promise<void> {
  await app.register(async (scope) => {
    // Whatever type the client declares, the body reaches the handler as a stream (it is the file).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['design-history'];
    const base = '/api/devices/:deviceId/design-history/entries/:entryId/attachments';

    api.post(
      base,
      {
        preHandler: deps.authenticated,
        schema: {
          tags,
          summary: 'Attach a file to an entry nobody has signed (the file as the body, ≤ 20 MB; kept by its SHA-256)',
          params: designHistoryEntryParamsSchema,
          querystring: attachmentUploadQuerySchema,
          response: { 201: designHistoryAttachmentSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(
          await deps.attachments.attach(currentUser(request).id, request.params.deviceId, request.params.entryId, {
            fileName: request.query.name,
            contentType: request.headers['content-type'],
            read: attachedBytes(request, reply),
          }),
        ),
    );

    api.get(
      `${base}/:attachmentId`,
      {
        preHandler: deps.authenticated,
        schema: {
          tags,
          summary: 'A file attached to an entry, for whoever may read its project',
          params: designHistoryAttachmentParamsSchema,
        },
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
