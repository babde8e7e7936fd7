import {
  createSsmSchema,
  patientLandmarksSchema,
  projectSsmsParamsSchema,
  ssmListSchema,
  ssmParamsSchema,
  ssmModeMeasurementsSchema,
  ssmSchema,
  ssmEndpoints,
  text,
} from '@insilico/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { SsmService } from '../../services/ssm.service';

export interface SsmRoutesDeps {
  ssms: SsmService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Statistical shape models of a project: list, create, read, and the model file (issue 18). */
export async function ssmRoutes(app: FastifyInstance, deps: SsmRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ssms'];
  const base = '/api/devices/:deviceId/projects/:projectId/ssms';
  const pre = { preHandler: deps.authenticated };

  api.get(
    base,
    { ...pre, schema: { tags, params: projectSsmsParamsSchema, response: { 200: ssmListSchema } } },
    async (request) => deps.ssms.list(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  api.post(
    base,
    { ...pre, schema: { tags, params: projectSsmsParamsSchema, body: createSsmSchema, response: { 201: ssmSchema } } },
    async (request, reply) => {
      const { deviceId, projectId } = request.params;
      return reply.code(201).send(await deps.ssms.create(currentUser(request).id, deviceId, projectId, request.body));
    },
  );

  api.get(
    `${base}/:ssmId`,
    { ...pre, schema: { tags, params: ssmParamsSchema, response: { 200: ssmSchema } } },
    async (request) => {
      const { deviceId, projectId, ssmId } = request.params;
      return deps.ssms.get(currentUser(request).id, deviceId, projectId, ssmId);
    },
  );

  // A model built with older build code, built again from its configuration as its next version (the old one stays).
  api.post(
    `${base}/:ssmId/rebuild`,
    { ...pre, schema: { tags, params: ssmParamsSchema, response: { 201: ssmSchema } } },
    async (request, reply) => {
      const { deviceId, projectId, ssmId } = request.params;
      return reply.code(201).send(await deps.ssms.rebuild(currentUser(request).id, deviceId, projectId, ssmId));
    },
  );

  // A failed build (or rebuild) started again as the same model, its configuration checked again.
  route(api, ssmEndpoints.retry, { ...pre, schema: { tags } }, async (request) => {
    const { deviceId, projectId, ssmId } = request.params;
    return deps.ssms.retry(currentUser(request).id, deviceId, projectId, ssmId);
  });

  // The model for drawing instances in the browser (encodeShapeModel of @insilico/ssm).
  api.get(`${base}/:ssmId/model`, { ...pre, schema: { tags, params: ssmParamsSchema } }, async (request, reply) => {
    const { deviceId, projectId, ssmId } = request.params;
    const bytes = await deps.ssms.modelFile(currentUser(request).id, deviceId, projectId, ssmId);
    return reply
      .header('Content-Type', 'application/octet-stream')
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .send(bytes);
  });

  // A shape of the model for the room viewer: `mean` or standard deviations per mode (`2,0,-1.5`).
  const instanceParams = ssmParamsSchema.extend({ instance: text().min(1).max(400) });
  api.get(
    `${base}/:ssmId/meshes/:instance`,
    { ...pre, schema: { tags, params: instanceParams } },
    async (request, reply) => {
      const { deviceId, projectId, ssmId, instance } = request.params;
      const glb = await deps.ssms.instanceGlb(currentUser(request).id, deviceId, projectId, ssmId, instance);
      return reply
        .header('Content-Type', 'model/gltf-binary')
        .header('Cache-Control', 'private, max-age=3600')
        .send(Buffer.from(glb));
    },
  );

  api.get(
    `${base}/:ssmId/meshes/:instance/landmarks`,
    { ...pre, schema: { tags, params: instanceParams, response: { 200: patientLandmarksSchema } } },
    async (request) => {
      const { deviceId, projectId, ssmId, instance } = request.params;
      return deps.ssms.instanceLandmarks(currentUser(request).id, deviceId, projectId, ssmId, instance);
    },
  );

  // Downloads (issue 18 item 7): a shape as STL or VTP, the mode matrix and the quality curves as CSV.
  const download = (reply: FastifyReply, type: string, fileName: string, body: string | Buffer) =>
    reply
      .type(type)
      .header('Cache-Control', 'private, no-cache')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .send(body);
  api.get(
    `${base}/:ssmId/exports/shapes/:instance/stl`,
    { ...pre, schema: { tags, params: instanceParams } },
    async (request, reply) => {
      const { deviceId, projectId, ssmId, instance } = request.params;
      const file = await deps.ssms.exportShapeStl(currentUser(request).id, deviceId, projectId, ssmId, instance);
      return download(reply, 'model/stl', file.fileName, Buffer.from(file.bytes));
    },
  );
  api.get(
    `${base}/:ssmId/exports/shapes/:instance/vtp`,
    { ...pre, schema: { tags, params: instanceParams } },
    async (request, reply) => {
      const { deviceId, projectId, ssmId, instance } = request.params;
      const file = await deps.ssms.exportShapeVtp(currentUser(request).id, deviceId, projectId, ssmId, instance);
      return download(reply, 'model/vnd.vtk.vtp+xml', file.fileName, file.text);
    },
  );
  api.get(
    `${base}/:ssmId/exports/modes.csv`,
    { ...pre, schema: { tags, params: ssmParamsSchema } },
    async (request, reply) => {
      const { deviceId, projectId, ssmId } = request.params;
      const file = await deps.ssms.exportModesCsv(currentUser(request).id, deviceId, projectId, ssmId);
      return download(reply, 'text/csv; charset=utf-8', file.fileName, file.text);
    },
  );
  api.get(
    `${base}/:ssmId/exports/quality.csv`,
    { ...pre, schema: { tags, params: ssmParamsSchema } },
    async (request, reply) => {
      const { deviceId, projectId, ssmId } = request.params;
      const file = await deps.ssms.exportQualityCsv(currentUser(request).id, deviceId, projectId, ssmId);
      return download(reply, 'text/csv; charset=utf-8', file.fileName, file.text);
    },
  );

  // Measurements along the modes (issue 18 item 8): the TAVI set from −3 SD to +3 SD of the first modes.
  api.get(
    `${base}/:ssmId/mode-measurements`,
    { ...pre, schema: { tags, params: ssmParamsSchema, response: { 200: ssmModeMeasurementsSchema } } },
    async (request) => {
      const { deviceId, projectId, ssmId } = request.params;
      return (await deps.ssms.modeMeasurements(currentUser(request).id, deviceId, projectId, ssmId)).table;
    },
  );
  api.get(
    `${base}/:ssmId/exports/mode-measurements.csv`,
    { ...pre, schema: { tags, params: ssmParamsSchema } },
    async (request, reply) => {
      const { deviceId, projectId, ssmId } = request.params;
      const file = await deps.ssms.modeMeasurementsCsv(currentUser(request).id, deviceId, projectId, ssmId);
      return download(reply, 'text/csv; charset=utf-8', file.fileName, file.text);
    },
  );
}
