import { uploadEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser } from '../../policies/authentication';
import type { UploadRoutesDeps } from './uploads.routes';

/**
 * Direct uploads into object storage (docs/decisions/object-storage.md), for an upload made by tus creation: the
 * part addresses (started or resumed), each part reported after storage took it, and the completion. JSON, outside
 * the tus scope; 409 `direct_unavailable` on the filesystem store.
 */
export async function directUploadRoutes(app: FastifyInstance, deps: UploadRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['uploads'];
  const pre = { preHandler: deps.authenticated };

  route(
    api,
    endpoints.direct,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Send the upload straight to storage: part size, parts received, presigned part addresses',
      },
    },
    async (request) => deps.uploads.direct(currentUser(request).id, request.params.deviceId, request.params.uploadId),
  );

  route(
    api,
    endpoints.directPart,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Report a part that storage took (its ETag and size)',
      },
    },
    async (request, reply) => {
      const { deviceId, uploadId, partNumber } = request.params;
      await deps.uploads.directPart(currentUser(request).id, deviceId, uploadId, partNumber, request.body);
      return reply.code(204).send();
    },
  );

  route(
    api,
    endpoints.completeDirect,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Join the parts in storage and complete the upload',
      },
    },
    async (request) =>
      deps.uploads.completeDirect(currentUser(request).id, request.params.deviceId, request.params.uploadId),
  );
}
