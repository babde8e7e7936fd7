import type { Readable } from 'node:stream';
import { pictureEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { PictureContent, PictureService, UploadReader } from '../../services/picture.service';
import { readUpload } from '../../services/picture-upload';

export interface PictureRoutesDeps {
  pictures: PictureService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * The body of a picture upload as the service reads it: the file's raw bytes (PUT with the file as
 * the body), read only when the service asks, never more than 5120 KB (the rest of a refused body is
 * left to `finishReadingBody`).
 */
export function uploadOf(request: FastifyRequest): UploadReader {
  return async () => {
    const body = request.body as Readable | undefined;
    if (!body) return new Uint8Array(0);
    const declared = Number(request.headers['content-length']);
    return readUpload(body, Number.isFinite(declared) ? declared : undefined);
  };
}

/** Sends a picture; `v` in the URL names the version, so that one may be cached for good. */
export function sendPicture(request: FastifyRequest, reply: FastifyReply, picture: PictureContent, version?: string) {
  const etag = `"${picture.version}"`;
  reply
    .header('ETag', etag)
    .header('Cache-Control', version === picture.version ? 'private, max-age=31536000, immutable' : 'private, no-cache')
    .header('Content-Disposition', 'inline');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type(picture.contentType).send(picture.bytes);
}

/**
 * Profile pictures, device pictures and the onboarding device picture: upload (PUT, the file as the
 * raw body), remove (DELETE), and read (GET, `?size=thumb|full`). See docs/decisions/pictures.md.
 */
export async function pictureRoutes(app: FastifyInstance, deps: PictureRoutesDeps): Promise<void> {
  await app.register(async (scope) => {
    // Whatever type the client declares, the bytes decide: every body reaches the handler as a stream.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['pictures'];
    const pre = (summary: string) => ({ preHandler: deps.authenticated, schema: { tags, summary } });

    route(
      api,
      endpoints.uploadProfile,
      pre('Upload your profile picture (JPEG or PNG, ≤ 5120 KB, the file as the body)'),
      async (request) => deps.pictures.setProfilePicture(currentUser(request).id, uploadOf(request)),
    );
    route(api, endpoints.removeProfile, pre('Remove your profile picture'), async (request) =>
      deps.pictures.removeProfilePicture(currentUser(request).id),
    );
    route(api, endpoints.profile, pre('A person’s profile picture'), async (request, reply) =>
      sendPicture(
        request,
        reply,
        await deps.pictures.profilePicture(currentUser(request).id, request.params.userId, request.query.size),
        request.query.v,
      ),
    );

    route(api, endpoints.uploadDevice, pre('Upload the device picture (admins)'), async (request) =>
      deps.pictures.setDevicePicture(currentUser(request).id, request.params.deviceId, uploadOf(request)),
    );
    route(api, endpoints.removeDevice, pre('Remove the device picture (admins)'), async (request) =>
      deps.pictures.removeDevicePicture(currentUser(request).id, request.params.deviceId),
    );
    route(api, endpoints.device, pre('The device picture'), async (request, reply) =>
      sendPicture(
        request,
        reply,
        await deps.pictures.devicePicture(currentUser(request).id, request.params.deviceId, request.query.size),
        request.query.v,
      ),
    );

    route(
      api,
      endpoints.uploadNewDevice,
      pre('Upload the device picture while onboarding (before the workspace exists)'),
      async (request) => deps.pictures.setNewDevicePicture(currentUser(request), uploadOf(request)),
    );
    route(api, endpoints.removeNewDevice, pre('Remove the onboarding device picture'), async (request) =>
      deps.pictures.removeNewDevicePicture(currentUser(request).id),
    );
    route(api, endpoints.newDevice, pre('The onboarding device picture'), async (request, reply) =>
      sendPicture(
        request,
        reply,
        await deps.pictures.newDevicePicture(currentUser(request).id, request.query.size),
        request.query.v,
      ),
    );
  });
}
