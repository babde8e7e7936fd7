import { pathOf, tusExtensions, tusVersion, uploadEndpoints as endpoints, uploadMaxBytes } from '@insilico/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestBody } from '../../http/request-body';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import { ServiceError } from '../../services/errors';
import type { UploadService, UploadState } from '../../services/upload.service';

export interface UploadRoutesDeps {
  uploads: UploadService;
  authenticated: ReturnType<typeof requireUser>;
}

const offsetContentType = 'application/offset+octet-stream';

/** Every tus answer names the protocol version, also errors (clients check it). */
function tusHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('Tus-Resumable', tusVersion).header('Cache-Control', 'no-store');
}

/** A non-negative integer header, or a 400 naming it. */
function integerHeader(request: FastifyRequest, name: string): number {
  const value = request.headers[name.toLowerCase()];
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value))
    throw new ServiceError(400, 'bad_request', `The ${name} header must be a non-negative whole number.`);
  return Number(value);
}

/** `Upload-Metadata`: comma-separated `key base64value` pairs (value optional), keys unique. */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (header === undefined || header.trim() === '') return metadata;
  if (header.length > 4096) throw new ServiceError(400, 'bad_request', 'Upload-Metadata is too long.');
  for (const pair of header.split(',')) {
    const [key, value, extra] = pair.trim().split(' ');
    if (!key || extra !== undefined || !/^[\x21-\x7e]+$/.test(key) || key in metadata)
      throw new ServiceError(400, 'bad_request', 'Upload-Metadata is not a list of "key base64value" pairs.');
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
      throw new ServiceError(400, 'bad_request', `Upload-Metadata: the value of "${key}" is not Base64.`);
    metadata[key] = value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8');
  }
  return metadata;
}

function formatMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => (value === '' ? key : `${key} ${Buffer.from(value, 'utf8').toString('base64')}`))
    .join(',');
}

function withState(reply: FastifyReply, state: UploadState): FastifyReply {
  return reply.header('Upload-Offset', String(state.offset)).header('Upload-Expires', state.expiresAt.toUTCString());
}

/**
 * Resumable uploads, tus 1.0.0 with the creation, termination and expiration extensions, written on Fastify
 * (docs/decisions/uploads-tus.md): OPTIONS (capabilities), POST (create), HEAD (offset, for resuming), PATCH
 * (bytes at an offset, streamed to storage) and DELETE. Same-origin rule and maintenance apply as everywhere.
 */
export async function uploadRoutes(app: FastifyInstance, deps: UploadRoutesDeps): Promise<void> {
  await app.register(async (scope) => {
    // PATCH bodies reach the handler as the raw request stream: never parsed, never buffered.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['uploads'];

    // The version check of the core protocol: every request but OPTIONS names the version it speaks.
    const tusVersionCheck = async (request: FastifyRequest, reply: FastifyReply) => {
      tusHeaders(reply);
      if (request.method === 'OPTIONS') return;
      if (request.headers['tus-resumable'] !== tusVersion) {
        reply.header('Tus-Version', tusVersion);
        throw new ServiceError(412, 'tus_version', `Only tus ${tusVersion} is supported (Tus-Resumable header).`);
      }
    };
    const pre = { onRequest: tusVersionCheck, preHandler: deps.authenticated };

    // OPTIONS and HEAD are tus's own methods (not the web client's): on the paths of the creation and of an upload.
    api.options(
      endpoints.create.path,
      { schema: { tags, params: endpoints.create.params, summary: 'tus capabilities' } },
      (_r, reply) =>
        tusHeaders(reply)
          .header('Tus-Version', tusVersion)
          .header('Tus-Extension', tusExtensions.join(','))
          .header('Tus-Max-Size', String(uploadMaxBytes))
          .code(204)
          .send(),
    );

    route(
      api,
      endpoints.create,
      { ...pre, schema: { tags, summary: 'Create a resumable upload (tus creation)' } },
      async (request, reply) => {
        if (request.headers['upload-defer-length'] !== undefined)
          throw new ServiceError(400, 'bad_request', 'Upload-Defer-Length is not supported: send Upload-Length.');
        const length = integerHeader(request, 'Upload-Length');
        const state = await deps.uploads.create(currentUser(request).id, request.params.deviceId, {
          length,
          metadata: parseUploadMetadata(request.headers['upload-metadata'] as string | undefined),
        });
        return withState(reply, state)
          .header('Location', pathOf(endpoints.send, { deviceId: request.params.deviceId, uploadId: state.id }))
          .code(201)
          .send();
      },
    );

    api.head(
      endpoints.send.path,
      { ...pre, schema: { tags, params: endpoints.send.params, summary: 'The offset of an upload (to resume it)' } },
      async (request, reply) => {
        const { deviceId, uploadId } = request.params;
        const state = await deps.uploads.state(currentUser(request).id, deviceId, uploadId);
        withState(reply, state).header('Upload-Length', String(state.length));
        if (Object.keys(state.metadata).length > 0) reply.header('Upload-Metadata', formatMetadata(state.metadata));
        return reply.code(200).send();
      },
    );

    route(
      api,
      endpoints.send,
      { ...pre, schema: { tags, summary: 'Send bytes at the upload offset' } },
      async (request, reply) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== offsetContentType)
          throw new ServiceError(415, 'bad_content_type', `A PATCH body must be sent as ${offsetContentType}.`);
        const offset = integerHeader(request, 'Upload-Offset');
        const declared = request.headers['content-length'];
        const state = await deps.uploads.append(
          currentUser(request).id,
          request.params.deviceId,
          request.params.uploadId,
          offset,
          requestBody(request),
          declared === undefined ? undefined : Number(declared),
        );
        return withState(reply, state).code(204).send();
      },
    );

    route(
      api,
      endpoints.terminate,
      { ...pre, schema: { tags, summary: 'End an upload and remove its bytes' } },
      async (request, reply) => {
        const { deviceId, uploadId } = request.params;
        await deps.uploads.terminate(currentUser(request).id, deviceId, uploadId);
        return reply.code(204).send();
      },
    );
  });
}
