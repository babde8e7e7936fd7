import { simulationEndpoints as endpoints } from '@insilico/contracts';
import { analyticsConsentCookie } from '@insilico/contracts/analytics';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { route } from '../../http/route';
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
  const pre = { preHandler: deps.authenticated, schema: { tags: ['simulations'] } };
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

  route(api, endpoints.setup, pre, async (request) => {
    const { deviceId, projectId, roomId } = request.params;
    return deps.simulations.setup(userId(request), deviceId, projectId, roomId, request.query.kind);
  });

  route(api, endpoints.estimate, pre, async (request) => {
    const { deviceId, projectId, roomId } = request.params;
    return deps.simulations.estimate(userId(request), deviceId, projectId, roomId, request.body);
  });

  route(api, endpoints.roomList, pre, async (request) => {
    const { deviceId, projectId, roomId } = request.params;
    return deps.simulations.list(userId(request), deviceId, projectId, request.query, roomId);
  });

  route(api, endpoints.create, pre, async (request, reply) => {
    const { deviceId, projectId, roomId } = request.params;
    return reply
      .code(201)
      .send(
        await deps.simulations.create(userId(request), deviceId, projectId, roomId, request.body, analyticsOf(request)),
      );
  });

  route(api, endpoints.list, pre, async (request) => {
    const { deviceId, projectId } = request.params;
    return deps.simulations.list(userId(request), deviceId, projectId, request.query);
  });

  route(api, endpoints.get, pre, async (request) => {
    const { deviceId, projectId, simulationId } = request.params;
    return deps.simulations.get(userId(request), deviceId, projectId, simulationId);
  });

  route(api, endpoints.rename, pre, async (request) => {
    const { deviceId, projectId, simulationId } = request.params;
    return deps.simulations.rename(userId(request), deviceId, projectId, simulationId, request.body.name);
  });

  route(api, endpoints.cancel, pre, async (request) => {
    const { deviceId, projectId, simulationId } = request.params;
    return deps.simulations.cancel(userId(request), deviceId, projectId, simulationId);
  });

  route(api, endpoints.retry, pre, async (request) => {
    const { deviceId, projectId, simulationId } = request.params;
    return deps.simulations.retry(userId(request), deviceId, projectId, simulationId, analyticsOf(request));
  });

  route(api, endpoints.remove, pre, async (request, reply) => {
    const { deviceId, projectId, simulationId } = request.params;
    await deps.simulations.remove(userId(request), deviceId, projectId, simulationId);
    return reply.code(204).send();
  });

  route(api, endpoints.results, pre, async (request) => {
    const { deviceId, projectId, simulationId } = request.params;
    return deps.simulations.results(userId(request), deviceId, projectId, simulationId);
  });

  route(api, endpoints.frame, pre, async (request, reply) => {
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
  });

  route(api, endpoints.export, pre, async (request, reply) => {
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
  });

  route(api, endpoints.particles, pre, async (request) => {
    const { deviceId, projectId, simulationId } = request.params;
    return deps.simulations.particles(userId(request), deviceId, projectId, simulationId);
  });

  route(api, endpoints.renameParticle, pre, async (request) => {
    const { deviceId, projectId, simulationId, object, particle } = request.params;
    return deps.simulations.renameParticle(userId(request), deviceId, projectId, simulationId, {
      object,
      particle,
      name: request.body.name,
    });
  });

  route(api, endpoints.timeline, pre, async (request) => {
    const { deviceId, projectId, simulationId, object } = request.params;
    return deps.simulations.timeline(userId(request), deviceId, projectId, simulationId, {
      object,
      particles: request.query.particles,
    });
  });

  route(api, endpoints.heatmap, pre, async (request) => {
    const { deviceId, projectId, simulationId } = request.params;
    return deps.simulations.heatmap(userId(request), deviceId, projectId, simulationId, request.query);
  });

  route(api, endpoints.monitors, pre, async (request, reply) => {
    const { deviceId, projectId, simulationId } = request.params;
    const output = await deps.simulations.output(userId(request), deviceId, projectId, simulationId, 'monitors.csv');
    return sendOutput(reply, output, 'text/csv; charset=utf-8', 'monitors.csv');
  });
}
