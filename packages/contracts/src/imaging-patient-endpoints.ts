import { cohortParameterTableSchema } from './analyses';
import { patientLandmarksSchema } from './cohorts';
import { endpoint } from './endpoint';
import {
  imagingCohortListSchema,
  imagingCohortParamsSchema,
  imagingPatientMeshParamsSchema,
  imagingPatientParamsSchema,
  imagingPatientSchema,
} from './imaging-patients';
import { projectRoomsParamsSchema } from './rooms';

const cohortsPath = '/api/devices/:deviceId/projects/:projectId/imaging-cohorts';
const patientPath = `${cohortsPath}/:datasetId/patients/:patientId` as const;

/**
 * The patients of a project's imaging cohorts (issue 19; docs/decisions/endpoints-in-contracts.md), read as a
 * virtual cohort's are; in a file of its own because `rooms.ts` imports `imaging-patients.ts`.
 */
export const imagingPatientEndpoints = {
  cohorts: endpoint({
    method: 'GET',
    path: cohortsPath,
    params: projectRoomsParamsSchema,
    response: { 200: imagingCohortListSchema },
  }),
  /** The population analysis reads an imaging cohort as it reads a virtual one (`…/cohorts/:id/parameters`). */
  parameters: endpoint({
    method: 'GET',
    path: `${cohortsPath}/:datasetId/parameters`,
    params: imagingCohortParamsSchema,
    response: { 200: cohortParameterTableSchema },
  }),
  patient: endpoint({
    method: 'GET',
    path: patientPath,
    params: imagingPatientParamsSchema,
    response: { 200: imagingPatientSchema },
  }),
  /** The delivered surfaces of one phase (GLB). */
  mesh: endpoint({ method: 'GET', path: `${patientPath}/meshes/:phase`, params: imagingPatientMeshParamsSchema }),
  landmarks: endpoint({
    method: 'GET',
    path: `${patientPath}/meshes/:phase/landmarks`,
    params: imagingPatientMeshParamsSchema,
    response: { 200: patientLandmarksSchema },
  }),
};
