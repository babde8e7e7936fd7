import { cohortEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
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
  const pre = { preHandler: deps.authenticated, schema: { tags: ['cohorts'] } };

  route(api, endpoints.count, pre, async (request) =>
    deps.cohorts.count(currentUser(request).id, request.params.deviceId, request.body.criteria),
  );

  route(api, endpoints.order, pre, async (request, reply) =>
    reply.code(201).send(await deps.cohorts.order(currentUser(request).id, request.params.deviceId, request.body)),
  );

  route(api, endpoints.list, pre, async (request) =>
    deps.cohorts.list(currentUser(request).id, request.params.deviceId),
  );

  route(api, endpoints.get, pre, async (request) =>
    deps.cohorts.get(currentUser(request).id, request.params.deviceId, request.params.cohortId),
  );

  route(api, endpoints.patients, pre, async (request) =>
    deps.cohorts.patients(currentUser(request).id, request.params.deviceId, request.params.cohortId, request.query),
  );

  route(api, endpoints.csv, pre, async (request, reply) => {
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
  });

  route(api, endpoints.parameters, pre, async (request) =>
    deps.cohorts.parameterTable(currentUser(request).id, request.params.deviceId, request.params.cohortId),
  );

  route(api, endpoints.patient, pre, async (request) => {
    const { deviceId, cohortId, patientId } = request.params;
    return deps.cohorts.patient(currentUser(request).id, deviceId, cohortId, patientId);
  });

  route(api, endpoints.mesh, pre, async (request, reply) => {
    const { deviceId, cohortId, patientId, phase } = request.params;
    const glb = await deps.cohorts.meshGlb(currentUser(request).id, deviceId, cohortId, patientId, phase);
    // The bytes of a phase never change (the cache key names every input), so the browser may keep them.
    return sendPatientGlb(reply, glb, `${patientId}_${phase}.glb`);
  });

  route(api, endpoints.landmarks, pre, async (request) => {
    const { deviceId, cohortId, patientId, phase } = request.params;
    return deps.cohorts.landmarks(currentUser(request).id, deviceId, cohortId, patientId, phase);
  });

  route(api, endpoints.requestPathology, pre, async (request) =>
    deps.cohorts.requestPathology(currentUser(request).id, request.params.deviceId, request.body.name),
  );
}
