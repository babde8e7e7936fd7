import { ssmEndpoints } from '@insilico/contracts';
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
  const pre = { preHandler: deps.authenticated, schema: { tags: ['ssms'] } };

  route(api, ssmEndpoints.list, pre, async (request) =>
    deps.ssms.list(currentUser(request).id, request.params.deviceId, request.params.projectId),
  );

  route(api, ssmEndpoints.create, pre, async (request, reply) => {
    const { deviceId, projectId } = request.params;
    return reply.code(201).send(await deps.ssms.create(currentUser(request).id, deviceId, projectId, request.body));
  });

  route(api, ssmEndpoints.get, pre, async (request) => {
    const { deviceId, projectId, ssmId } = request.params;
    return deps.ssms.get(currentUser(request).id, deviceId, projectId, ssmId);
  });

  // A model built with older build code, built again from its configuration as its next version (the old one stays).
  route(api, ssmEndpoints.rebuild, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId } = request.params;
    return reply.code(201).send(await deps.ssms.rebuild(currentUser(request).id, deviceId, projectId, ssmId));
  });

  // A failed build (or rebuild) started again as the same model, its configuration checked again.
  route(api, ssmEndpoints.retry, pre, async (request) => {
    const { deviceId, projectId, ssmId } = request.params;
    return deps.ssms.retry(currentUser(request).id, deviceId, projectId, ssmId);
  });

  // The model for drawing instances in the browser (encodeShapeModel of @insilico/ssm).
  route(api, ssmEndpoints.model, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId } = request.params;
    const bytes = await deps.ssms.modelFile(currentUser(request).id, deviceId, projectId, ssmId);
    return reply
      .header('Content-Type', 'application/octet-stream')
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .send(bytes);
  });

  // A shape of the model for the room viewer: `mean` or standard deviations per mode (`2,0,-1.5`).
  route(api, ssmEndpoints.shape, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId, instance } = request.params;
    const glb = await deps.ssms.instanceGlb(currentUser(request).id, deviceId, projectId, ssmId, instance);
    return reply
      .header('Content-Type', 'model/gltf-binary')
      .header('Cache-Control', 'private, max-age=3600')
      .send(Buffer.from(glb));
  });

  route(api, ssmEndpoints.shapeLandmarks, pre, async (request) => {
    const { deviceId, projectId, ssmId, instance } = request.params;
    return deps.ssms.instanceLandmarks(currentUser(request).id, deviceId, projectId, ssmId, instance);
  });

  // Downloads (issue 18 item 7): a shape as STL or VTP, the mode matrix and the quality curves as CSV.
  const download = (reply: FastifyReply, type: string, fileName: string, body: string | Buffer) =>
    reply
      .type(type)
      .header('Cache-Control', 'private, no-cache')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .send(body);
  route(api, ssmEndpoints.shapeStl, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId, instance } = request.params;
    const file = await deps.ssms.exportShapeStl(currentUser(request).id, deviceId, projectId, ssmId, instance);
    return download(reply, 'model/stl', file.fileName, Buffer.from(file.bytes));
  });
  route(api, ssmEndpoints.shapeVtp, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId, instance } = request.params;
    const file = await deps.ssms.exportShapeVtp(currentUser(request).id, deviceId, projectId, ssmId, instance);
    return download(reply, 'model/vnd.vtk.vtp+xml', file.fileName, file.text);
  });
  route(api, ssmEndpoints.modesCsv, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId } = request.params;
    const file = await deps.ssms.exportModesCsv(currentUser(request).id, deviceId, projectId, ssmId);
    return download(reply, 'text/csv; charset=utf-8', file.fileName, file.text);
  });
  route(api, ssmEndpoints.qualityCsv, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId } = request.params;
    const file = await deps.ssms.exportQualityCsv(currentUser(request).id, deviceId, projectId, ssmId);
    return download(reply, 'text/csv; charset=utf-8', file.fileName, file.text);
  });

  // Measurements along the modes (issue 18 item 8): the TAVI set from −3 SD to +3 SD of the first modes.
  route(api, ssmEndpoints.modeMeasurements, pre, async (request) => {
    const { deviceId, projectId, ssmId } = request.params;
    return (await deps.ssms.modeMeasurements(currentUser(request).id, deviceId, projectId, ssmId)).table;
  });
  route(api, ssmEndpoints.modeMeasurementsCsv, pre, async (request, reply) => {
    const { deviceId, projectId, ssmId } = request.params;
    const file = await deps.ssms.modeMeasurementsCsv(currentUser(request).id, deviceId, projectId, ssmId);
    return download(reply, 'text/csv; charset=utf-8', file.fileName, file.text);
  });
}
