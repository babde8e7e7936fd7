import { imagingPatientEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ImagingPatientService } from '../../services/imaging-patient.service';
import { sendPatientGlb } from '../cohorts/cohorts.routes';

export interface ImagingPatientRoutesDeps {
  imagingPatients: ImagingPatientService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * The patients of a project's imaging cohorts (issue 19 item 7): the cohorts with their patients, one patient, and
 * its delivered surfaces per phase as GLB with the landmarks — the same shapes as a virtual patient's.
 */
export async function imagingPatientRoutes(app: FastifyInstance, deps: ImagingPatientRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['imaging'];
  const pre = { preHandler: deps.authenticated, schema: { tags } };

  route(
    api,
    endpoints.cohorts,
    { ...pre, schema: { tags, summary: "The project's imaging cohorts and their patients" } },
    async (request) => ({
      items: await deps.imagingPatients.cohorts(
        currentUser(request).id,
        request.params.deviceId,
        request.params.projectId,
      ),
    }),
  );

  // The population analysis reads an imaging cohort as it reads a virtual one (`…/cohorts/:id/parameters`).
  route(
    api,
    endpoints.parameters,
    {
      ...pre,
      schema: {
        tags,
        summary: "An imaging cohort's patients with what is measured on them, as the population analysis reads it",
      },
    },
    async (request) => {
      const { deviceId, projectId, datasetId } = request.params;
      return deps.imagingPatients.projectParameterTable(currentUser(request).id, deviceId, projectId, datasetId);
    },
  );

  route(api, endpoints.patient, pre, async (request) => {
    const { deviceId, projectId, datasetId, patientId } = request.params;
    return deps.imagingPatients.patient(currentUser(request).id, deviceId, projectId, datasetId, patientId);
  });

  route(
    api,
    endpoints.mesh,
    { ...pre, schema: { tags, summary: 'Delivered surfaces of one phase' } },
    async (request, reply) => {
      const { deviceId, projectId, datasetId, patientId, phase } = request.params;
      const glb = await deps.imagingPatients.glb(
        currentUser(request).id,
        deviceId,
        projectId,
        datasetId,
        patientId,
        phase,
      );
      // A dataset's models are delivered once: the bytes of a phase never change.
      return sendPatientGlb(reply, glb, `${patientId}_${phase}.glb`);
    },
  );

  route(api, endpoints.landmarks, pre, async (request) => {
    const { deviceId, projectId, datasetId, patientId, phase } = request.params;
    return deps.imagingPatients.landmarks(currentUser(request).id, deviceId, projectId, datasetId, patientId, phase);
  });
}
