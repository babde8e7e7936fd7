import { deviceEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { DeviceService } from '../../services/device.service';

export interface DeviceRoutesDeps {
  devices: DeviceService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Device workspaces: list, create (add device), read and update (admins), the selected workspace. */
export async function deviceRoutes(app: FastifyInstance, deps: DeviceRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pre = { preHandler: deps.authenticated, schema: { tags: ['devices'] } };

  route(api, endpoints.list, pre, async (request) => deps.devices.list(currentUser(request).id));

  route(api, endpoints.create, pre, async (request, reply) =>
    reply.code(201).send(await deps.devices.create(currentUser(request), request.body)),
  );

  route(api, endpoints.get, pre, async (request) => deps.devices.get(currentUser(request).id, request.params.deviceId));

  route(api, endpoints.update, pre, async (request) =>
    deps.devices.update(currentUser(request).id, request.params.deviceId, request.body),
  );

  route(api, endpoints.selected, pre, async (request) => deps.devices.selected(currentUser(request).id));

  route(api, endpoints.select, pre, async (request) =>
    deps.devices.select(currentUser(request).id, request.body.deviceId),
  );
}
