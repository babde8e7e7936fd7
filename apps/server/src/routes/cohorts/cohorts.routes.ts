import {
  cohortCountRequestSchema,
  cohortCountSchema,
  cohortListSchema,
  cohortMeshParamsSchema,
  cohortParameterTableSchema,
  cohortParamsSchema,
  cohortPatientPageSchema,
  cohortPatientParamsSchema,
  cohortPatientSchema,
  cohortPatientsQuerySchema,
  cohortSchema,
  createCohortSchema,
  deviceParamsSchema,
  pathologyRequestAnswerSchema,
  pathologyRequestSchema,
  patientLandmarksSchema,
} from '@insilico/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { CohortService } from '../../services/cohort.service';

export interface CohortRoutesDeps {
  cohorts: CohortService;
  authenticated: ReturnType<typeof requireUser>;
}

/** A patient's meshes of one phase as GLB; their bytes never change, so the browser may keep them for a day. */
export function sendPatientGlb(reply: FastifyReply, glb: Buffer, fileName: string): FastifyReply {
  return reply
    .type('model/gltf-binary')
    .header('Cache-Control', 'private, max-age=86400')
    .header('Content-Disposition', `inline; filename="${fileName}"`)
    .send(glb);
}

/** Patient cohorts of a workspace: live count, order, list, one cohort, its patients, CSV, meshes. */
export async function cohortRoutes(app: FastifyInstance, deps: CohortRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['cohorts'];
  const base = '/api/devices/:deviceId/cohorts';
  const pre = { preHandler: deps.authenticated };

  api.post(
    `${base}/count`,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        body: cohortCountRequestSchema,
        response: { 200: cohortCountSchema },
      },
    },
    async (request) => deps.cohorts.count(currentUser(request).id, request.params.deviceId, request.body.criteria),
  );

  api.post(
    base,
    { ...pre, schema: { tags, params: deviceParamsSchema, body: createCohortSchema, response: { 201: cohortSchema } } },
    async (request, reply) =>
      reply.code(201).send(await deps.cohorts.order(currentUser(request).id, request.params.deviceId, request.body)),
  );

  api.get(
    base,
    { ...pre, schema: { tags, params: deviceParamsSchema, response: { 200: cohortListSchema } } },
    async (request) => deps.cohorts.list(currentUser(request).id, request.params.deviceId),
  );

  api.get(
    `${base}/:cohortId`,
    { ...pre, schema: { tags, params: cohortParamsSchema, response: { 200: cohortSchema } } },
    async (request) => deps.cohorts.get(currentUser(request).id, request.params.deviceId, request.params.cohortId),
  );

  api.get(
    `${base}/:cohortId/patients`,
    {
      ...pre,
      schema: {
        tags,
        params: cohortParamsSchema,
        querystring: cohortPatientsQuerySchema,
        response: { 200: cohortPatientPageSchema },
      },
    },
    async (request) =>
      deps.cohorts.patients(currentUser(request).id, request.params.deviceId, request.params.cohortId, request.query),
  );

  api.get(
    `${base}/:cohortId/patients.csv`,
    { ...pre, schema: { tags, params: cohortParamsSchema } },
    async (request, reply) => {
      const { fileName, text } = await deps.cohorts.csv(
        currentUser(request).id,
        request.params.deviceId,
        request.params.cohortId,
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .header('Cache-Control', 'no-store')
        .send(text);
    },
  );

  api.get(
    `${base}/:cohortId/parameters`,
    { ...pre, schema: { tags, params: cohortParamsSchema, response: { 200: cohortParameterTableSchema } } },
    async (request) =>
      deps.cohorts.parameterTable(currentUser(request).id, request.params.deviceId, request.params.cohortId),
  );

  api.get(
    `${base}/:cohortId/patients/:patientId`,
    { ...pre, schema: { tags, params: cohortPatientParamsSchema, response: { 200: cohortPatientSchema } } },
    async (request) => {
      const { deviceId, cohortId, patientId } = request.params;
      return deps.cohorts.patient(currentUser(request).id, deviceId, cohortId, patientId);
    },
  );

  api.get(
    `${base}/:cohortId/patients/:patientId/meshes/:phase`,
    { ...pre, schema: { tags, params: cohortMeshParamsSchema } },
    async (request, reply) => {
      const { deviceId, cohortId, patientId, phase } = request.params;
      const glb = await deps.cohorts.meshGlb(currentUser(request).id, deviceId, cohortId, patientId, phase);
      // The bytes of a phase never change (the cache key names every input), so the browser may keep them.
      return sendPatientGlb(reply, glb, `${patientId}_${phase}.glb`);
    },
  );

  api.get(
    `${base}/:cohortId/patients/:patientId/meshes/:phase/landmarks`,
    { ...pre, schema: { tags, params: cohortMeshParamsSchema, response: { 200: patientLandmarksSchema } } },
    async (request) => {
      const { deviceId, cohortId, patientId, phase } = request.params;
      return deps.cohorts.landmarks(currentUser(request).id, deviceId, cohortId, patientId, phase);
    },
  );

  api.post(
    '/api/devices/:deviceId/pathology-requests',
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        body: pathologyRequestSchema,
        response: { 200: pathologyRequestAnswerSchema },
      },
    },
    async (request) =>
      deps.cohorts.requestPathology(currentUser(request).id, request.params.deviceId, request.body.name),
  );
}
