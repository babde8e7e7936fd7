import {
  ssmParamsSchema,
  cohortParamsSchema,
  createMeasurementOrderSchema,
  deviceParamsSchema,
  measurementCorrectionSchema,
  measurementDefinitionBodySchema,
  measurementDefinitionListSchema,
  measurementDefinitionParamsSchema,
  measurementDefinitionSchema,
  measurementOrderListSchema,
  measurementOrderParamsSchema,
  measurementOrderSchema,
  measurementPatientParamsSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { MeasurementService } from '../../services/measurement.service';

export interface MeasurementRoutesDeps {
  measurements: MeasurementService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Measurement definitions, orders on a cohort, results (JSON and CSV) and hand corrections (issue 23). */
export async function measurementRoutes(app: FastifyInstance, deps: MeasurementRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['measurements'];
  const device = '/api/devices/:deviceId';
  const pre = { preHandler: deps.authenticated };
  const m = deps.measurements;

  api.get(
    `${device}/measurement-definitions`,
    { ...pre, schema: { tags, params: deviceParamsSchema, response: { 200: measurementDefinitionListSchema } } },
    async (request) => m.definitions(currentUser(request).id, request.params.deviceId),
  );

  api.post(
    `${device}/measurement-definitions`,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        body: measurementDefinitionBodySchema,
        response: { 201: measurementDefinitionSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await m.createDefinition(currentUser(request).id, request.params.deviceId, request.body)),
  );

  api.put(
    `${device}/measurement-definitions/:definitionId`,
    {
      ...pre,
      schema: {
        tags,
        params: measurementDefinitionParamsSchema,
        body: measurementDefinitionBodySchema,
        response: { 201: measurementDefinitionSchema },
      },
    },
    async (request, reply) =>
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

  api.post(
    `${device}/cohorts/:cohortId/measurement-orders`,
    {
      ...pre,
      schema: {
        tags,
        params: cohortParamsSchema,
        body: createMeasurementOrderSchema,
        response: { 201: measurementOrderSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await m.order(currentUser(request).id, request.params.deviceId, request.params.cohortId, request.body)),
  );

  // An order on a shape model's mean and named instances (issue 23).
  api.post(
    `${device}/projects/:projectId/ssms/:ssmId/measurement-orders`,
    {
      ...pre,
      schema: {
        tags,
        params: ssmParamsSchema,
        body: createMeasurementOrderSchema,
        response: { 201: measurementOrderSchema },
      },
    },
    async (request, reply) => {
      const { deviceId, projectId, ssmId } = request.params;
      return reply
        .code(201)
        .send(await m.orderOnShapes(currentUser(request).id, deviceId, projectId, ssmId, request.body));
    },
  );

  api.get(
    `${device}/measurement-orders`,
    { ...pre, schema: { tags, params: deviceParamsSchema, response: { 200: measurementOrderListSchema } } },
    async (request) => m.list(currentUser(request).id, request.params.deviceId),
  );

  api.get(
    `${device}/measurement-orders/:orderId`,
    { ...pre, schema: { tags, params: measurementOrderParamsSchema, response: { 200: measurementOrderSchema } } },
    async (request) => m.get(currentUser(request).id, request.params.deviceId, request.params.orderId),
  );

  api.get(
    `${device}/measurement-orders/:orderId/results.csv`,
    { ...pre, schema: { tags, params: measurementOrderParamsSchema } },
    async (request, reply) => {
      const { fileName, text } = await m.csv(currentUser(request).id, request.params.deviceId, request.params.orderId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .header('Cache-Control', 'no-store')
        .send(text);
    },
  );

  api.put(
    `${device}/measurement-orders/:orderId/patients/:patientId/correction`,
    {
      ...pre,
      schema: {
        tags,
        params: measurementPatientParamsSchema,
        body: measurementCorrectionSchema,
        response: { 200: measurementOrderSchema },
      },
    },
    async (request) =>
      m.correct(
        currentUser(request).id,
        request.params.deviceId,
        request.params.orderId,
        request.params.patientId,
        request.body,
      ),
  );
}
