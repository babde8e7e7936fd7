import useSWR from 'swr';
import {
  cohortEndpoints,
  cohortPatientPageSchema,
  pathOf,
  roomEndpoints,
  roomSchema,
  ssmListSchema,
  ssmModeMeasurementsSchema,
  ssmEndpoints,
  ssmSchema,
  type CohortPatientPage,
  type CreateSsm,
  type Room,
  type Ssm,
  type SsmList,
  type SsmModeMeasurements,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import { trackAfter } from '../../lib/analytics';
import type { ApiError } from '../../lib/apiError';

/** URLs the SSM pages call: SWR keys, the model file, a shape's mesh and the downloads. */
export const ssmUrls = {
  list: (deviceId: string, projectId: string) => pathOf(ssmEndpoints.list, { deviceId, projectId }),
  one: (deviceId: string, projectId: string, ssmId: string) => pathOf(ssmEndpoints.get, { deviceId, projectId, ssmId }),
  shape: (deviceId: string, projectId: string, ssmId: string, instance: string) =>
    pathOf(ssmEndpoints.shape, { deviceId, projectId, ssmId, instance }),
  model: (deviceId: string, projectId: string, ssmId: string) =>
    pathOf(ssmEndpoints.model, { deviceId, projectId, ssmId }),
  /** A shape (`mean` or its deviations) as STL or VTP. */
  shapeFile: (deviceId: string, projectId: string, ssmId: string, instance: string, format: 'stl' | 'vtp') =>
    pathOf(format === 'stl' ? ssmEndpoints.shapeStl : ssmEndpoints.shapeVtp, { deviceId, projectId, ssmId, instance }),
  /** The mode matrix, the quality curves or the measurements along the modes as CSV. */
  csv: (deviceId: string, projectId: string, ssmId: string, file: 'modes' | 'quality' | 'modeMeasurements') =>
    pathOf(ssmEndpoints[`${file}Csv`], { deviceId, projectId, ssmId }),
  modeMeasurements: (deviceId: string, projectId: string, ssmId: string) =>
    pathOf(ssmEndpoints.modeMeasurements, { deviceId, projectId, ssmId }),
  patients: (deviceId: string, cohortId: string) =>
    pathOf(cohortEndpoints.patients, { deviceId, cohortId }, { page: 1, pageSize: 100, sort: 'id', order: 'asc' }),
};

/** The project's SSMs; asked again every 2 s while one is being built (spec §4: in progress until ready). */
export function useSsms(deviceId: string | null, projectId: string | null) {
  return useSWR<SsmList, ApiError>(
    deviceId && projectId ? ssmUrls.list(deviceId, projectId) : null,
    (url: string) => apiFetch(url, { schema: ssmListSchema }),
    { refreshInterval: (latest) => (latest?.items.some((ssm) => ssm.status === 'in_progress') ? 2000 : 0) },
  );
}

/** One SSM; asked again every 2 s while it is being built (spec §4: in progress until ready). */
export function useSsm(deviceId: string | null, projectId: string | null, ssmId: string | null) {
  return useSWR<Ssm, ApiError>(
    deviceId && projectId && ssmId ? ssmUrls.one(deviceId, projectId, ssmId) : null,
    (url: string) => apiFetch(url, { schema: ssmSchema }),
    // Waiting for cohorts being ordered (minutes): asked less often until its build starts.
    {
      refreshInterval: (latest) =>
        latest?.status !== 'in_progress' ? 0 : latest.waitingFor.length > 0 ? 10_000 : 2000,
    },
  );
}

/** How the TAVI set changes along the model's first modes (measured on the server, in its CPU pool). */
export function useSsmModeMeasurements(deviceId: string, projectId: string, ssmId: string) {
  return useSWR<SsmModeMeasurements, ApiError>(
    ssmUrls.modeMeasurements(deviceId, projectId, ssmId),
    (url: string) => apiFetch(url, { schema: ssmModeMeasurementsSchema }),
    { revalidateOnFocus: false },
  );
}

/** The patients of a ready cohort (at most 100 per cohort, the largest size offered). */
export function useCohortPatientIds(deviceId: string | null, cohortId: string | null) {
  return useSWR<CohortPatientPage, ApiError>(
    deviceId && cohortId ? ssmUrls.patients(deviceId, cohortId) : null,
    (url: string) => apiFetch(url, { schema: cohortPatientPageSchema }),
  );
}

/** The bytes of a binary answer (the model file), or the server's message as an error. */
export async function apiFetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The shape model could not be loaded (status ${response.status}).`);
  return new Uint8Array(await response.arrayBuffer());
}

export function createSsm(deviceId: string, projectId: string, body: CreateSsm): Promise<Ssm> {
  return apiCall(ssmEndpoints.create, { deviceId, projectId }, { body, schema: ssmSchema }).then(
    trackAfter('SSM created', (ssm) => ({ projectId, ssmId: ssm.id })),
  );
}

/** A model built with older build code, built again from its configuration as its next version (the old one stays). */
export function rebuildSsm(deviceId: string, projectId: string, ssmId: string): Promise<Ssm> {
  return apiCall(ssmEndpoints.rebuild, { deviceId, projectId, ssmId }, { body: {}, schema: ssmSchema });
}

/** A failed build (or rebuild) started again as the same model; the server checks its configuration again. */
export function retrySsm(deviceId: string, projectId: string, ssmId: string): Promise<Ssm> {
  return apiCall(ssmEndpoints.retry, { deviceId, projectId, ssmId }, { body: {}, schema: ssmSchema });
}

/**
 * A room on the SSM showing one of its shapes: created on the SSM (named after the shape unless it is the mean),
 * then its view saved on that shape, so the room is a named instance of the model.
 */
export async function createSsmRoom(
  deviceId: string,
  projectId: string,
  ssmId: string,
  shape: { label: string; name?: string },
): Promise<Room> {
  const room = await apiCall(
    roomEndpoints.create,
    { deviceId, projectId },
    { body: { ssmId, ...(shape.name ? { name: shape.name } : {}) }, schema: roomSchema },
  );
  if (shape.label !== 'mean')
    await apiCall(
      roomEndpoints.saveScene,
      { deviceId, projectId, roomId: room.id },
      { body: { placements: [], view: { phase: shape.label, hiddenOrgans: [] } } },
    );
  return room;
}
