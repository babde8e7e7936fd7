import { measurementEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { MeasurementService } from '../../services/measurement.service';

export interface MeasurementRoutesDeps {
  measurements: MeasurementService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Measurement definitions, orders on a cohort, results (JSON and CSV) and hand corrections (issue 23). */
export async function measurementRoutes(app: FastifyInstance, deps: MeasurementRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pre = { preHandler: deps.authenticated, schema: { tags: ['measurements'] } };
  const m = deps.measurements;

  route(api, endpoints.definitions, pre, async (request) =>
    m.definitions(currentUser(request).id, request.params.deviceId),
  );

  route(api, endpoints.createDefinition, pre, async (request, reply) =>
    reply.code(201).send(await m.createDefinition(currentUser(request).id, request.params.deviceId, request.body)),
  );

  route(api, endpoints.reviseDefinition, pre, async (request, reply) =>
    reply
      .code(201)
      .send(
        await m.reviseDefinition(
          currentUser(request).id,
          request.params.deviceId,
          request.params.definitionId,
          request.body,
        ),
      ),
  );

  route(api, endpoints.orderOnCohort, pre, async (request, reply) =>
    reply
      .code(201)
      .send(await m.order(currentUser(request).id, request.params.deviceId, request.params.cohortId, request.body)),
  );

  // An order on a shape model's mean and named instances (issue 23).
  route(api, endpoints.orderOnShapes, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId } = request.params;
    return reply
      .code(201)
      .send(await m.orderOnShapes(currentUser(request).id, deviceId, projectId, ssmId, request.body));
  });

  route(api, endpoints.orders, pre, async (request) => m.list(currentUser(request).id, request.params.deviceId));

  route(api, endpoints.order, pre, async (request) =>
    m.get(currentUser(request).id, request.params.deviceId, request.params.orderId),
  );

  route(api, endpoints.csv, pre, async (request, reply) => {
    const { fileName, text } = await m.csv(currentUser(request).id, request.params.deviceId, request.params.orderId);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('Cache-Control', 'no-store')
      .send(text);
  });

  route(api, endpoints.correct, pre, async (request) =>
    m.correct(
      currentUser(request).id,
      request.params.deviceId,
      request.params.orderId,
      request.params.patientId,
      request.body,
    ),
  );
}
