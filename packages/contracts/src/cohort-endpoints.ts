import { cohortParameterTableSchema } from './analyses';
import {
  cohortCountRequestSchema,
  cohortCountSchema,
  cohortListSchema,
  cohortMeshParamsSchema,
  cohortParamsSchema,
  cohortPatientPageSchema,
  cohortPatientParamsSchema,
  cohortPatientSchema,
  cohortPatientsQuerySchema,
  cohortSchema,
  createCohortSchema,
  pathologyRequestAnswerSchema,
  pathologyRequestSchema,
  patientLandmarksSchema,
} from './cohorts';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';

const cohortsPath = '/api/devices/:deviceId/cohorts';
const cohortPath = `${cohortsPath}/:cohortId` as const;
const patientPath = `${cohortPath}/patients/:patientId` as const;

/**
 * The cohort API of a workspace (docs/decisions/endpoints-in-contracts.md); in a file of its own because it takes
 * the parameter table's schema from `analyses.ts`, which imports `cohorts.ts`.
 */
export const cohortEndpoints = {
  /** The live count of patients matching the criteria. */
  count: endpoint({
    method: 'POST',
    path: `${cohortsPath}/count`,
    params: deviceParamsSchema,
    body: cohortCountRequestSchema,
    response: { 200: cohortCountSchema },
  }),
  order: endpoint({
    method: 'POST',
    path: cohortsPath,
    params: deviceParamsSchema,
    body: createCohortSchema,
    response: { 201: cohortSchema },
  }),
  list: endpoint({ method: 'GET', path: cohortsPath, params: deviceParamsSchema, response: { 200: cohortListSchema } }),
  get: endpoint({ method: 'GET', path: cohortPath, params: cohortParamsSchema, response: { 200: cohortSchema } }),
  patients: endpoint({
    method: 'GET',
    path: `${cohortPath}/patients`,
    params: cohortParamsSchema,
    query: cohortPatientsQuerySchema,
    response: { 200: cohortPatientPageSchema },
  }),
  /** The patients' parameters as a CSV download. */
  csv: endpoint({ method: 'GET', path: `${cohortPath}/patients.csv`, params: cohortParamsSchema }),
  parameters: endpoint({
    method: 'GET',
    path: `${cohortPath}/parameters`,
    params: cohortParamsSchema,
    response: { 200: cohortParameterTableSchema },
  }),
  patient: endpoint({
    method: 'GET',
    path: patientPath,
    params: cohortPatientParamsSchema,
    response: { 200: cohortPatientSchema },
  }),
  /** A patient's meshes of one phase as GLB. */
  mesh: endpoint({ method: 'GET', path: `${patientPath}/meshes/:phase`, params: cohortMeshParamsSchema }),
  landmarks: endpoint({
    method: 'GET',
    path: `${patientPath}/meshes/:phase/landmarks`,
    params: cohortMeshParamsSchema,
    response: { 200: patientLandmarksSchema },
  }),
  /** Asks support for a pathology the database lacks. */
  requestPathology: endpoint({
    method: 'POST',
    path: '/api/devices/:deviceId/pathology-requests',
    params: deviceParamsSchema,
    body: pathologyRequestSchema,
    response: { 200: pathologyRequestAnswerSchema },
  }),
};
