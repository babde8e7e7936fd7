import { deviceVersionEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { DeviceVersionService, StoredContent } from '../../services/device-version.service';

export interface DeviceVersionRoutesDeps {
  deviceVersions: DeviceVersionService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Sends stored bytes as a stream; `download` names the original file for saving. */
function sendContent(request: FastifyRequest, reply: FastifyReply, content: StoredContent, download: boolean) {
  reply
    .header('ETag', content.etag)
    // Stored files never change; `v` in a preview URL names the exact file, so the browser may keep it.
    .header('Cache-Control', 'private, max-age=86400')
    .header(
      'Content-Disposition',
      `${download ? 'attachment' : 'inline'}; filename="${content.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; ` +
        `filename*=UTF-8''${encodeURIComponent(content.fileName)}`,
    );
  if (request.headers['if-none-match'] === content.etag) {
    content.stream.destroy();
    return reply.code(304).send();
  }
  return reply.type(content.contentType).header('Content-Length', String(content.bytes)).send(content.stream);
}

/**
 * Device versions of a workspace: name check, create (from finished uploads), list, one version, delete, a file's
 * model and preview; and a project's versions (add a ready one, remove one).
 */
export async function deviceVersionRoutes(app: FastifyInstance, deps: DeviceVersionRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['device-versions'];
  const pre = { preHandler: deps.authenticated, schema: { tags } };
  const described = (summary: string) => ({ ...pre, schema: { tags, summary } });

  route(api, endpoints.nameAvailable, pre, async (request) =>
    deps.deviceVersions.nameAvailable(currentUser(request).id, request.params.deviceId, request.query.name),
  );

  route(
    api,
    endpoints.create,
    described('Create a device version from finished uploads; it is processed in the background'),
    async (request, reply) =>
      reply
        .code(201)
        .send(await deps.deviceVersions.create(currentUser(request).id, request.params.deviceId, request.body)),
  );

  route(api, endpoints.list, pre, async (request) =>
    deps.deviceVersions.list(currentUser(request).id, request.params.deviceId, request.query),
  );

  route(api, endpoints.get, pre, async (request) =>
    deps.deviceVersions.get(currentUser(request).id, request.params.deviceId, request.params.versionId),
  );

  route(
    api,
    endpoints.remove,
    described('Delete a processed device version that no room uses (its stored files too)'),
    async (request, reply) => {
      await deps.deviceVersions.remove(currentUser(request).id, request.params.deviceId, request.params.versionId);
      return reply.code(204).send();
    },
  );

  route(api, endpoints.model, described('Download the STL file as uploaded'), async (request, reply) => {
    const { deviceId, versionId, fileId } = request.params;
    const content = await deps.deviceVersions.model(currentUser(request).id, deviceId, versionId, fileId);
    return sendContent(request, reply, content, true);
  });

  route(api, endpoints.preview, described('The preview image (PNG)'), async (request, reply) => {
    const { deviceId, versionId, fileId } = request.params;
    const content = await deps.deviceVersions.preview(currentUser(request).id, deviceId, versionId, fileId);
    return sendContent(request, reply, content, false);
  });

  route(api, endpoints.addToProject, described('Add a ready device version to a project'), async (request) => {
    const { deviceId, projectId } = request.params;
    return deps.deviceVersions.addToProject(currentUser(request).id, deviceId, projectId, request.body.versionId);
  });

  route(
    api,
    endpoints.removeFromProject,
    described('Remove a device version from a project'),
    async (request, reply) => {
      const { deviceId, projectId, versionId } = request.params;
      await deps.deviceVersions.removeFromProject(currentUser(request).id, deviceId, projectId, versionId);
      return reply.code(204).send();
    },
  );
}
