import { roomEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { RoomScreenshotService } from '../../services/room-screenshot.service';
import type { RoomService } from '../../services/room.service';
import { sendPicture, uploadOf } from '../pictures/pictures.routes';

interface RoomParams {
  deviceId: string;
  projectId: string;
  roomId: string;
}

export interface RoomRoutesDeps {
  rooms: RoomService;
  screenshots: RoomScreenshotService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * Rooms of a project (Rooms tab and the room's scene): list, create, rename, delete, share, scene (the anatomy
 * comes from the cohort API), and the screenshot gallery. See docs/decisions/rooms.md.
 */
export async function roomRoutes(app: FastifyInstance, deps: RoomRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags: ['rooms'] };
  const pre = { preHandler: deps.authenticated, schema };
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;
  /** The caller and the room a request names: the first arguments of the room services. */
  const inRoom = (request: Parameters<typeof currentUser>[0] & { params: RoomParams }) =>
    [userId(request), request.params.deviceId, request.params.projectId, request.params.roomId] as const;

  route(api, endpoints.list, pre, async (request) =>
    deps.rooms.list(userId(request), request.params.deviceId, request.params.projectId, request.query),
  );

  route(api, endpoints.create, pre, async (request, reply) =>
    reply
      .code(201)
      .send(await deps.rooms.create(userId(request), request.params.deviceId, request.params.projectId, request.body)),
  );

  route(api, endpoints.get, pre, async (request) => deps.rooms.get(...inRoom(request)));

  route(api, endpoints.rename, pre, async (request) => deps.rooms.rename(...inRoom(request), request.body.name));

  route(api, endpoints.remove, pre, async (request, reply) => {
    await deps.rooms.remove(...inRoom(request));
    return reply.code(204).send();
  });

  route(api, endpoints.shares, pre, async (request) => deps.rooms.shareList(...inRoom(request)));

  route(api, endpoints.share, pre, async (request) => deps.rooms.share(...inRoom(request), request.body.userIds));

  route(api, endpoints.scene, pre, async (request) => deps.rooms.scene(...inRoom(request)));

  route(api, endpoints.saveScene, pre, async (request) => deps.rooms.saveScene(...inRoom(request), request.body));

  route(api, endpoints.screenshots, pre, async (request) => deps.screenshots.list(...inRoom(request)));

  // The screenshot is the raw body (like pictures): its bytes decide its type, never more than 5120 KB is read.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    route(
      scope.withTypeProvider<ZodTypeProvider>(),
      endpoints.addScreenshot,
      {
        ...pre,
        schema: {
          ...schema,
          summary: 'Add a screenshot of the scene to the room’s gallery (PNG, ≤ 5120 KB, the image as the body)',
        },
      },
      async (request, reply) => {
        const created = await deps.screenshots.upload(...inRoom(request), uploadOf(request));
        return reply.code(201).send(created);
      },
    );
  });

  route(api, endpoints.screenshotImage, pre, async (request, reply) => {
    const image = await deps.screenshots.image(...inRoom(request), request.params.screenshotId, request.query.size);
    return sendPicture(request, reply, image, request.query.v);
  });
}
