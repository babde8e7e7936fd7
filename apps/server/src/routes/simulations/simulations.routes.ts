import {
  createSimulationSchema,
  projectSimulationsParamsSchema,
  renameSimulationSchema,
  roomSimulationsParamsSchema,
  simulationEstimateSchema,
  simulationExportParamsSchema,
  simulationFrameParamsSchema,
  simulationFrameQuerySchema,
  simulationHeatmapQuerySchema,
  simulationHeatmapSchema,
  simulationParticleListSchema,
  simulationParticleParamsSchema,
  simulationParticleSchema,
  simulationTimelineParamsSchema,
  simulationTimelineQuerySchema,
  simulationTimelineSchema,
  renameParticleSchema,
  simulationListQuerySchema,
  simulationPageSchema,
  simulationParamsSchema,
  simulationResultsSchema,
  simulationSchema,
  simulationSetupQuerySchema,
  simulationSetupSchema,
} from '@insilico/contracts';
import { analyticsConsentCookie } from '@insilico/contracts/analytics';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { SimulationService } from '../../services/simulation.service';

export interface SimulationRoutesDeps {
  simulations: SimulationService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Whether the browser sent the analytics consent cookie (the run's completion is then recorded, issue 21). */
function analyticsOf(request: FastifyRequest): { consent: boolean } {
  return { consent: request.cookies[analyticsConsentCookie] !== undefined };
}

function sendOutput(
  reply: FastifyReply,
  output: { stream: Readable; bytes: number },
  type: string,
  fileName: string,
): FastifyReply {
  return reply
    .type(type)
    .header('Content-Length', String(output.bytes))
    .header('Cache-Control', 'private, no-cache')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .send(output.stream);
}

/**
 * Simulations (issue 16): set-up defaults and estimates per room and kind, create, the list per room and per project,
 * rename, cancel, retry, delete, and the results (manifest, binary frames, CSV/VTP exports, monitors.csv). Thin: the service checks
 * permissions and every input. See docs/decisions/simulations.md.
 */
export async function simulationRoutes(app: FastifyInstance, deps: SimulationRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['simulations'];
  const roomBase = '/api/devices/:deviceId/projects/:projectId/rooms/:roomId/simulations';
  const projectBase = '/api/devices/:deviceId/projects/:projectId/simulations';
  const one = `${projectBase}/:simulationId`;
  const pre = { preHandler: deps.authenticated };
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

  api.get(
    `${roomBase}/setup`,
    {
      ...pre,
      schema: {
        tags,
        params: roomSimulationsParamsSchema,
        querystring: simulationSetupQuerySchema,
        response: { 200: simulationSetupSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.simulations.setup(userId(request), deviceId, projectId, roomId, request.query.kind);
    },
  );

  api.post(
    `${roomBase}/estimate`,
    {
      ...pre,
      schema: {
        tags,
        params: roomSimulationsParamsSchema,
        body: createSimulationSchema,
        response: { 200: simulationEstimateSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.simulations.estimate(userId(request), deviceId, projectId, roomId, request.body);
    },
  );

  api.get(
    roomBase,
    {
      ...pre,
      schema: {
        tags,
        params: roomSimulationsParamsSchema,
        querystring: simulationListQuerySchema,
        response: { 200: simulationPageSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, roomId } = request.params;
      return deps.simulations.list(userId(request), deviceId, projectId, request.query, roomId);
    },
  );

  api.post(
    roomBase,
    {
      ...pre,
      schema: {
        tags,
        params: roomSimulationsParamsSchema,
        body: createSimulationSchema,
        response: { 201: simulationSchema },
      },
    },
    async (request, reply) => {
      const { deviceId, projectId, roomId } = request.params;
      return reply
        .code(201)
        .send(
          await deps.simulations.create(
            userId(request),
            deviceId,
            projectId,
            roomId,
            request.body,
            analyticsOf(request),
          ),
        );
    },
  );

  api.get(
    projectBase,
    {
      ...pre,
      schema: {
        tags,
        params: projectSimulationsParamsSchema,
        querystring: simulationListQuerySchema,
        response: { 200: simulationPageSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId } = request.params;
      return deps.simulations.list(userId(request), deviceId, projectId, request.query);
    },
  );

  api.get(
    one,
    { ...pre, schema: { tags, params: simulationParamsSchema, response: { 200: simulationSchema } } },
    async (request) => {
      const { deviceId, projectId, simulationId } = request.params;
      return deps.simulations.get(userId(request), deviceId, projectId, simulationId);
    },
  );

  api.patch(
    one,
    {
      ...pre,
      schema: {
        tags,
        params: simulationParamsSchema,
        body: renameSimulationSchema,
        response: { 200: simulationSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, simulationId } = request.params;
      return deps.simulations.rename(userId(request), deviceId, projectId, simulationId, request.body.name);
    },
  );

  api.post(
    `${one}/cancel`,
    { ...pre, schema: { tags, params: simulationParamsSchema, response: { 200: simulationSchema } } },
    async (request) => {
      const { deviceId, projectId, simulationId } = request.params;
      return deps.simulations.cancel(userId(request), deviceId, projectId, simulationId);
    },
  );

  api.post(
    `${one}/retry`,
    { ...pre, schema: { tags, params: simulationParamsSchema, response: { 200: simulationSchema } } },
    async (request) => {
      const { deviceId, projectId, simulationId } = request.params;
      return deps.simulations.retry(userId(request), deviceId, projectId, simulationId, analyticsOf(request));
    },
  );

  api.delete(one, { ...pre, schema: { tags, params: simulationParamsSchema } }, async (request, reply) => {
    const { deviceId, projectId, simulationId } = request.params;
    await deps.simulations.remove(userId(request), deviceId, projectId, simulationId);
    return reply.code(204).send();
  });

  api.get(
    `${one}/results`,
    { ...pre, schema: { tags, params: simulationParamsSchema, response: { 200: simulationResultsSchema } } },
    async (request) => {
      const { deviceId, projectId, simulationId } = request.params;
      return deps.simulations.results(userId(request), deviceId, projectId, simulationId);
    },
  );

  api.get(
    `${one}/frames/:object/:timestep`,
    { ...pre, schema: { tags, params: simulationFrameParamsSchema, querystring: simulationFrameQuerySchema } },
    async (request, reply) => {
      const { deviceId, projectId, simulationId, object, timestep } = request.params;
      const names = request.query.columns?.split(',').filter(Boolean);
      if (names?.length) {
        const bytes = await deps.simulations.frameColumns(userId(request), deviceId, projectId, simulationId, {
          object,
          timestep,
          columns: names,
        });
        return reply.type('application/octet-stream').header('Cache-Control', 'private, no-cache').send(bytes);
      }
      const file = `${object}/${timestep}.bin`;
      const output = await deps.simulations.output(userId(request), deviceId, projectId, simulationId, file);
      return sendOutput(reply, output, 'application/octet-stream', `${object}-${timestep}.bin`);
    },
  );

  api.get(
    `${one}/exports/:object/:timestep/:format`,
    { ...pre, schema: { tags, params: simulationExportParamsSchema } },
    async (request, reply) => {
      const { deviceId, projectId, simulationId, object, timestep, format } = request.params;
      const file = await deps.simulations.exportFrame(userId(request), deviceId, projectId, simulationId, {
        object,
        timestep,
        format,
      });
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/xml; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .send(file.text);
    },
  );

  api.get(
    `${one}/particles`,
    { ...pre, schema: { tags, params: simulationParamsSchema, response: { 200: simulationParticleListSchema } } },
    async (request) => {
      const { deviceId, projectId, simulationId } = request.params;
      return deps.simulations.particles(userId(request), deviceId, projectId, simulationId);
    },
  );

  api.put(
    `${one}/particles/:object/:particle`,
    {
      ...pre,
      schema: {
        tags,
        params: simulationParticleParamsSchema,
        body: renameParticleSchema,
        response: { 200: simulationParticleSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, simulationId, object, particle } = request.params;
      return deps.simulations.renameParticle(userId(request), deviceId, projectId, simulationId, {
        object,
        particle,
        name: request.body.name,
      });
    },
  );

  api.get(
    `${one}/timeline/:object`,
    {
      ...pre,
      schema: {
        tags,
        params: simulationTimelineParamsSchema,
        querystring: simulationTimelineQuerySchema,
        response: { 200: simulationTimelineSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, simulationId, object } = request.params;
      return deps.simulations.timeline(userId(request), deviceId, projectId, simulationId, {
        object,
        particles: request.query.particles,
      });
    },
  );

  api.get(
    `${one}/heatmap`,
    {
      ...pre,
      schema: {
        tags,
        params: simulationParamsSchema,
        querystring: simulationHeatmapQuerySchema,
        response: { 200: simulationHeatmapSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, simulationId } = request.params;
      return deps.simulations.heatmap(userId(request), deviceId, projectId, simulationId, request.query);
    },
  );

  api.get(
    `${one}/monitors.csv`,
    { ...pre, schema: { tags, params: simulationParamsSchema } },
    async (request, reply) => {
      const { deviceId, projectId, simulationId } = request.params;
      const output = await deps.simulations.output(userId(request), deviceId, projectId, simulationId, 'monitors.csv');
      return sendOutput(reply, output, 'text/csv; charset=utf-8', 'monitors.csv');
    },
  );
}
