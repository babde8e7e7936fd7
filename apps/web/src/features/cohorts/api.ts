import useSWR from 'swr';
import type { CohortCriteria } from '@insilico/anatomy';
import {
  cohortCountSchema,
  cohortEndpoints as endpoints,
  cohortListSchema,
  cohortPatientPageSchema,
  cohortPatientSchema,
  cohortSchema,
  pathOf,
  pathologyRequestAnswerSchema,
  type Cohort,
  type CohortCount,
  type CohortList,
  type CohortPatient,
  type CohortPatientPage,
  type CohortPatientsQuery,
  type PathologyRequestAnswer,
} from '@insilico/contracts';
import { trackAfter } from '../../lib/analytics';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** URLs of the cohort API of one workspace (SWR keys and links; the definitions are `cohortEndpoints`). */
export const cohortUrls = {
  list: (deviceId: string) => pathOf(endpoints.list, { deviceId }),
  one: (deviceId: string, cohortId: string) => pathOf(endpoints.get, { deviceId, cohortId }),
  patients: (deviceId: string, cohortId: string, query: CohortPatientsQuery) =>
    pathOf(
      endpoints.patients,
      { deviceId, cohortId },
      { search: query.search, sort: query.sort, order: query.order, page: query.page, pageSize: query.pageSize },
    ),
  csv: (deviceId: string, cohortId: string) => pathOf(endpoints.csv, { deviceId, cohortId }),
  patient: (deviceId: string, cohortId: string, patientId: string) =>
    pathOf(endpoints.patient, { deviceId, cohortId, patientId }),
  mesh: (deviceId: string, cohortId: string, patientId: string, phase: string) =>
    pathOf(endpoints.mesh, { deviceId, cohortId, patientId, phase }),
};

/** While an order is in progress the page follows it; a ready or failed cohort does not change any more. */
const inProgressRefreshMs = 1500;
/** The app dedupes for 60 s (spec §7); polling needs each tick to reach the server. */
const following = (
  refreshInterval: (data: { status?: string; items?: { status: string }[] } | undefined) => number,
) => ({
  refreshInterval,
  dedupingInterval: inProgressRefreshMs - 500,
});

export function useCohorts(deviceId: string | null) {
  return useSWR<CohortList, ApiError>(
    deviceId ? cohortUrls.list(deviceId) : null,
    (url: string) => apiFetch(url, { schema: cohortListSchema }),
    following((data) => (data?.items?.some((item) => item.status === 'in_progress') ? inProgressRefreshMs : 0)),
  );
}

export function useCohort(deviceId: string | null, cohortId: string) {
  return useSWR<Cohort, ApiError>(
    deviceId ? cohortUrls.one(deviceId, cohortId) : null,
    (url: string) => apiFetch(url, { schema: cohortSchema }),
    following((data) => (data?.status === 'in_progress' ? inProgressRefreshMs : 0)),
  );
}

export function useCohortPatients(
  deviceId: string | null,
  cohortId: string,
  query: CohortPatientsQuery,
  ready: boolean,
) {
  return useSWR<CohortPatientPage, ApiError>(
    deviceId && ready ? cohortUrls.patients(deviceId, cohortId, query) : null,
    (url: string) => apiFetch(url, { schema: cohortPatientPageSchema }),
    { keepPreviousData: true },
  );
}

export function useCohortPatient(deviceId: string | null, cohortId: string, patientId: string) {
  return useSWR<CohortPatient, ApiError>(
    deviceId ? cohortUrls.patient(deviceId, cohortId, patientId) : null,
    (url: string) => apiFetch(url, { schema: cohortPatientSchema }),
  );
}

/** `POST .../cohorts/count`: the live count (abortable: a newer click replaces it). */
export function countCohort(deviceId: string, criteria: CohortCriteria, signal: AbortSignal): Promise<CohortCount> {
  return apiCall(endpoints.count, { deviceId }, { body: { criteria }, schema: cohortCountSchema, signal });
}

export interface OrderInput {
  name: string;
  description: string;
  size: number;
  criteria: CohortCriteria;
}

/** `POST .../cohorts`: places the order; the cohort comes back in progress. */
export function orderCohort(deviceId: string, input: OrderInput): Promise<Cohort> {
  return apiCall(endpoints.order, { deviceId }, { body: input, schema: cohortSchema }).then(
    trackAfter('cohort ordered', (cohort) => ({ deviceId, cohortId: cohort.id })),
  );
}

/** `POST .../pathology-requests`: asks support for a pathology the database lacks. */
export function requestPathology(deviceId: string, name: string): Promise<PathologyRequestAnswer> {
  return apiCall(endpoints.requestPathology, { deviceId }, { body: { name }, schema: pathologyRequestAnswerSchema });
}
