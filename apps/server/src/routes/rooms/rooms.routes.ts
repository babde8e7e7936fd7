import {
  createRoomSchema,
  pictureQuerySchema,
  projectRoomsParamsSchema,
  renameRoomSchema,
  roomListQuerySchema,
  roomPageSchema,
  roomParamsSchema,
  roomSceneSchema,
  roomSchema,
  roomScreenshotListSchema,
  roomScreenshotParamsSchema,
  roomScreenshotSchema,
  roomShareListSchema,
  saveRoomSceneSchema,
  shareRoomSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { RoomScreenshotService } from '../../services/room-screenshot.service';
import type { RoomService } from '../../services/room.service';
import { sendPicture, uploadOf } from '../pictures/pictures.routes';

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
  const tags = ['rooms'];
  const base = '/api/devices/:deviceId/projects/:projectId/rooms';
  const room = `${base}/:roomId`;
  const pre = { preHandler: deps.authenticated };
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

  api.get(
    base,
    {
      ...pre,
      schema: {
        tags,
        params: projectRoomsParamsSchema,
        querystring: roomListQuerySchema,
        response: { 200: roomPageSchema },
      },
    },
    async (request) =>
      deps.rooms.list(userId(request), request.params.deviceId, request.params.projectId, request.query),
  );

  api.post(
    base,
    {
      ...pre,
      schema: { tags, params: projectRoomsParamsSchema, body: createRoomSchema, response: { 201: roomSchema } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await deps.rooms.create(userId(request), request.params.deviceId, request.params.projectId, request.body),
        ),
  );

  api.get(
    room,
    { ...pre, schema: { tags, params: roomParamsSchema, response: { 200: roomSchema } } },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.rooms.get(userId(request), deviceId, projectId, roomId);
    },
  );

  api.patch(
    room,
    { ...pre, schema: { tags, params: roomParamsSchema, body: renameRoomSchema, response: { 200: roomSchema } } },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.rooms.rename(userId(request), deviceId, projectId, roomId, request.body.name);
    },
  );

  api.delete(room, { ...pre, schema: { tags, params: roomParamsSchema } }, async (request, reply) => {
    const { deviceId, projectId, roomId } = request.params;
    await deps.rooms.remove(userId(request), deviceId, projectId, roomId);
    return reply.code(204).send();
  });

  api.get(
    `${room}/shares`,
    { ...pre, schema: { tags, params: roomParamsSchema, response: { 200: roomShareListSchema } } },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.rooms.shareList(userId(request), deviceId, projectId, roomId);
    },
  );

  api.post(
    `${room}/shares`,
    {
      ...pre,
      schema: { tags, params: roomParamsSchema, body: shareRoomSchema, response: { 200: roomShareListSchema } },
    },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.rooms.share(userId(request), deviceId, projectId, roomId, request.body.userIds);
    },
  );

  api.get(
    `${room}/scene`,
    { ...pre, schema: { tags, params: roomParamsSchema, response: { 200: roomSceneSchema } } },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.rooms.scene(userId(request), deviceId, projectId, roomId);
    },
  );

  api.put(
    `${room}/scene`,
    {
      ...pre,
      schema: { tags, params: roomParamsSchema, body: saveRoomSceneSchema, response: { 200: roomSceneSchema } },
    },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.rooms.saveScene(userId(request), deviceId, projectId, roomId, request.body);
    },
  );

  api.get(
    `${room}/screenshots`,
    { ...pre, schema: { tags, params: roomParamsSchema, response: { 200: roomScreenshotListSchema } } },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.screenshots.list(userId(request), deviceId, projectId, roomId);
    },
  );

  // The screenshot is the raw body (like pictures): its bytes decide its type, never more than 5120 KB is read.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().post(
      `${room}/screenshots`,
      {
        ...pre,
        schema: {
          tags,
          summary: 'Add a screenshot of the scene to the room’s gallery (PNG, ≤ 5120 KB, the image as the body)',
          params: roomParamsSchema,
          response: { 201: roomScreenshotSchema },
        },
      },
      async (request, reply) => {
        const { deviceId, projectId, roomId } = request.params;
        const created = await deps.screenshots.upload(
          userId(request),
          deviceId,
          projectId,
          roomId,
          uploadOf(request, reply),
        );
        return reply.code(201).send(created);
      },
    );
  });

  api.get(
    `${room}/screenshots/:screenshotId/image`,
    { ...pre, schema: { tags, params: roomScreenshotParamsSchema, querystring: pictureQuerySchema } },
    async (request, reply) => {
      const { deviceId, projectId, roomId, screenshotId } = request.params;
      const image = await deps.screenshots.image(
        userId(request),
        deviceId,
        projectId,
        roomId,
        screenshotId,
        request.query.size,
      );
      return sendPicture(request, reply, image, request.query.v);
    },
  );
}
