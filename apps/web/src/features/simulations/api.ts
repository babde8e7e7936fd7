import { useCallback, useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import {
  pathOf,
  simulationEndpoints as endpoints,
  simulationEstimateSchema,
  simulationPageSchema,
  simulationSchema,
  simulationSetupSchema,
  type CreateSimulation,
  type Simulation,
  type SimulationEstimate,
  type SimulationKindName,
  type SimulationListQuery,
  type SimulationPage,
  type SimulationSetup,
} from '@insilico/contracts';
import { trackAfter } from '../../lib/analytics';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';
import { isRoomsChangedKey } from '../../lib/projectKeys';

/**
 * URLs of the simulation API of one project (docs/decisions/simulations.md; the definitions are `simulationEndpoints`
 * of the contracts), SWR keys of the set-up and the estimate; `listUrl` builds the lists' keys.
 */
export const simulationUrls = {
  setup: (deviceId: string, projectId: string, roomId: string, kind: SimulationKindName) =>
    pathOf(endpoints.setup, { deviceId, projectId, roomId }, { kind }),
  estimate: (deviceId: string, projectId: string, roomId: string) =>
    pathOf(endpoints.estimate, { deviceId, projectId, roomId }),
};

/** Where a list lives: one room's simulations, or every simulation of the project. */
export interface SimulationScope {
  deviceId: string;
  projectId: string;
  /** Null: the project's list (with a room column). */
  roomId: string | null;
}

export function listUrl(scope: SimulationScope, query: SimulationListQuery): string {
  const { deviceId, projectId, roomId } = scope;
  const filters = {
    search: query.search,
    sort: query.sort,
    order: query.order,
    page: query.page,
    pageSize: query.pageSize,
  };
  return roomId
    ? pathOf(endpoints.roomList, { deviceId, projectId, roomId }, filters)
    : pathOf(endpoints.list, { deviceId, projectId }, filters);
}

/** The address of a simulation's results page (another feature's page; notifications link to the same). */
export function resultsPath(deviceId: string, simulation: Pick<Simulation, 'id' | 'projectId' | 'roomId'>): string {
  const params = new URLSearchParams({
    project: simulation.projectId,
    room: simulation.roomId,
    simulation: simulation.id,
    device: deviceId,
  });
  return `/projects/room/analyses?${params.toString()}`;
}

/** While a run is queued or running the lists ask again this often (progress, ETA); otherwise never by themselves. */
export const runningRefreshMs = 2000;

export function isActive(simulation: Pick<Simulation, 'status'>): boolean {
  return simulation.status === 'queued' || simulation.status === 'running';
}

export function useSimulationList(scope: SimulationScope, query: SimulationListQuery) {
  const list = useSWR<SimulationPage, ApiError>(
    listUrl(scope, query),
    (url: string) => apiFetch(url, { schema: simulationPageSchema }),
    { keepPreviousData: true },
  );
  // SWR's own polling is deduplicated within the 60 s of spec §7: a run's progress is asked for by mutate instead.
  const active = list.data?.items.some(isActive) ?? false;
  const { mutate } = list;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void mutate(), runningRefreshMs);
    return () => clearInterval(timer);
  }, [active, mutate]);
  return list;
}

export function useSimulationSetup(
  deviceId: string,
  projectId: string,
  roomId: string,
  kind: SimulationKindName,
  /** Changes when the room's saved placements change: the defaults and estimates depend on the device. */
  roomRevision: string,
) {
  return useSWR<SimulationSetup, ApiError>(
    [simulationUrls.setup(deviceId, projectId, roomId, kind), roomRevision],
    ([url]: [string, string]) => apiFetch(url, { schema: simulationSetupSchema }),
    { revalidateOnFocus: false },
  );
}

/** The server's estimate of one set-up (every value checked as for a run): a 4xx carries the message to show. */
export function useSimulationEstimate(
  deviceId: string,
  projectId: string,
  roomId: string,
  body: CreateSimulation | null,
) {
  const url = simulationUrls.estimate(deviceId, projectId, roomId);
  return useSWR<SimulationEstimate, ApiError>(
    body ? [url, JSON.stringify(body)] : null,
    ([, json]: [string, string]) =>
      apiCall(
        endpoints.estimate,
        { deviceId, projectId, roomId },
        { body: JSON.parse(json) as unknown, schema: simulationEstimateSchema },
      ),
    { keepPreviousData: true, shouldRetryOnError: false, revalidateOnFocus: false },
  );
}

export function createSimulation(
  deviceId: string,
  projectId: string,
  roomId: string,
  body: CreateSimulation,
): Promise<Simulation> {
  return apiCall(endpoints.create, { deviceId, projectId, roomId }, { body, schema: simulationSchema }).then(
    trackAfter('simulation started', (simulation) => ({ projectId, roomId, simulationId: simulation.id })),
  );
}

export function renameSimulation(deviceId: string, projectId: string, id: string, name: string): Promise<Simulation> {
  return apiCall(
    endpoints.rename,
    { deviceId, projectId, simulationId: id },
    { body: { name }, schema: simulationSchema },
  );
}

export function cancelSimulation(deviceId: string, projectId: string, id: string): Promise<Simulation> {
  return apiCall(endpoints.cancel, { deviceId, projectId, simulationId: id }, { body: {}, schema: simulationSchema });
}

export function retrySimulation(deviceId: string, projectId: string, id: string): Promise<Simulation> {
  return apiCall(endpoints.retry, { deviceId, projectId, simulationId: id }, { body: {}, schema: simulationSchema });
}

export function deleteSimulation(deviceId: string, projectId: string, id: string): Promise<void> {
  return apiCall(endpoints.remove, { deviceId, projectId, simulationId: id });
}

/**
 * Revalidates what a change of a simulation makes stale (docs/decisions/swr-refresh-after-mutations.md): every
 * simulation list of the project, the room list (a room "has a simulation") and the project's figures.
 */
export function useRefreshSimulations() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (deviceId: string, projectId: string) => {
      await mutate(isRoomsChangedKey(deviceId, projectId));
    },
    [mutate],
  );
}
