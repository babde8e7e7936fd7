import {
  createDeviceSchema,
  deviceListSchema,
  deviceParamsSchema,
  deviceSchema,
  onboardingCompleteSchema,
  selectDeviceSchema,
  selectedDeviceSchema,
  updateDeviceSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { DeviceService } from '../../services/device.service';

export interface DeviceRoutesDeps {
  devices: DeviceService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Device workspaces: list, create (add device), read and update (admins), the selected workspace. */
export async function deviceRoutes(app: FastifyInstance, deps: DeviceRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['devices'];

  api.get(
    '/api/devices',
    { preHandler: deps.authenticated, schema: { tags, response: { 200: deviceListSchema } } },
    async (request) => deps.devices.list(currentUser(request).id),
  );

  api.post(
    '/api/devices',
    {
      preHandler: deps.authenticated,
      schema: { tags, body: createDeviceSchema, response: { 201: onboardingCompleteSchema } },
    },
    async (request, reply) => reply.code(201).send(await deps.devices.create(currentUser(request), request.body)),
  );

  api.get(
    '/api/devices/:deviceId',
    { preHandler: deps.authenticated, schema: { tags, params: deviceParamsSchema, response: { 200: deviceSchema } } },
    async (request) => deps.devices.get(currentUser(request).id, request.params.deviceId),
  );

  api.patch(
    '/api/devices/:deviceId',
    {
      preHandler: deps.authenticated,
      schema: { tags, params: deviceParamsSchema, body: updateDeviceSchema, response: { 200: deviceSchema } },
    },
    async (request) => deps.devices.update(currentUser(request).id, request.params.deviceId, request.body),
  );

  api.get(
    '/api/me/selected-device',
    { preHandler: deps.authenticated, schema: { tags, response: { 200: selectedDeviceSchema } } },
    async (request) => deps.devices.selected(currentUser(request).id),
  );

  api.put(
    '/api/me/selected-device',
    {
      preHandler: deps.authenticated,
      schema: { tags, body: selectDeviceSchema, response: { 200: selectedDeviceSchema } },
    },
    async (request) => deps.devices.select(currentUser(request).id, request.body.deviceId),
  );
}
