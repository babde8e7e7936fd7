import useSWR from 'swr';
import {
  pathOf,
  simulationEndpoints as endpoints,
  simulationHeatmapSchema,
  simulationParticleListSchema,
  simulationParticleSchema,
  simulationResultsSchema,
  simulationSchema,
  simulationTimelineSchema,
  type Simulation,
  type SimulationParticle,
  type SimulationResults,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import { ApiError, clientErrorCodes } from '../../lib/apiError';
import { checkMaintenanceAnswer } from '../../lib/maintenance';
import { splitColumns, type ColumnValues, type ResultObject } from './resultData';
import { readNumericCsv } from '@insilico/contracts/csv';

/**
 * URLs of one simulation's results (docs/decisions/simulations.md "API and permissions"; the definitions are
 * `simulationEndpoints` of the contracts); SWR keys too.
 */
export const resultUrls = {
  one: (deviceId: string, projectId: string, simulationId: string) =>
    pathOf(endpoints.get, { deviceId, projectId, simulationId }),
  results: (deviceId: string, projectId: string, simulationId: string) =>
    pathOf(endpoints.results, { deviceId, projectId, simulationId }),
  particles: (deviceId: string, projectId: string, simulationId: string) =>
    pathOf(endpoints.particles, { deviceId, projectId, simulationId }),
  timeline: (deviceId: string, projectId: string, simulationId: string, object: string, particles: readonly number[]) =>
    pathOf(endpoints.timeline, { deviceId, projectId, simulationId, object }, { particles: particles.join(',') }),
};

/**
 * A Range heatmap binned on the server next to the stored frames (only bin counts travel): the chosen objects'
 * output over timesteps `start`…`end`, with an amount of bins or a bin size (spec §5).
 */
export function fetchHeatmap(
  heatmapUrl: string,
  query: {
    objects: readonly string[];
    output: string;
    start: number;
    end: number;
    bins: { binCount: number } | { binSize: number };
  },
) {
  const params = new URLSearchParams({
    objects: query.objects.join(','),
    output: query.output,
    start: String(query.start),
    end: String(query.end),
    ...('binSize' in query.bins ? { binSize: String(query.bins.binSize) } : { binCount: String(query.bins.binCount) }),
  });
  return apiFetch(`${heatmapUrl}?${params.toString()}`, { schema: simulationHeatmapSchema });
}

/** How often a queued or running simulation is asked for its progress and new frames. */
export const runningRefreshMs = 2000;

const isActive = (simulation: Pick<Simulation, 'status'> | undefined) =>
  simulation?.status === 'queued' || simulation?.status === 'running';

export function useSimulation(deviceId: string | null, projectId: string | null, simulationId: string | null) {
  return useSWR<Simulation, ApiError>(
    deviceId && projectId && simulationId ? resultUrls.one(deviceId, projectId, simulationId) : null,
    (url: string) => apiFetch(url, { schema: simulationSchema }),
    { refreshInterval: (data) => (isActive(data) ? runningRefreshMs : 0) },
  );
}

/**
 * The results (manifest and URLs), asked again while the run goes on (new frames appear); null while the first
 * timestep is not saved yet (the API's 409 'no_results').
 */
export function useResults(
  deviceId: string | null,
  projectId: string | null,
  simulationId: string | null,
  running: boolean,
  onSuccess?: (results: SimulationResults | null) => void,
) {
  return useSWR(
    deviceId && projectId && simulationId ? resultUrls.results(deviceId, projectId, simulationId) : null,
    async (url: string) => {
      try {
        return await apiFetch(url, { schema: simulationResultsSchema });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'no_results') return null;
        throw error;
      }
    },
    { refreshInterval: running ? runningRefreshMs : 0, ...(onSuccess ? { onSuccess } : {}) },
  );
}

export function useParticleNames(deviceId: string | null, projectId: string | null, simulationId: string | null) {
  return useSWR(
    deviceId && projectId && simulationId ? resultUrls.particles(deviceId, projectId, simulationId) : null,
    (url: string) => apiFetch(url, { schema: simulationParticleListSchema }),
  );
}

/** An object's timeline with the chosen particles (null key: nothing asked); refreshed while the run goes on. */
export function useTimeline(url: string | null, running: boolean) {
  return useSWR(url, (key: string) => apiFetch(key, { schema: simulationTimelineSchema }), {
    refreshInterval: running ? runningRefreshMs : 0,
    keepPreviousData: true,
  });
}

export function useMonitors(url: string | null, running: boolean) {
  return useSWR(url, async (key: string) => readNumericCsv(new TextDecoder().decode(await fetchBytes(key))), {
    refreshInterval: running ? runningRefreshMs : 0,
  });
}

export async function renameParticle(
  deviceId: string,
  projectId: string,
  simulationId: string,
  object: string,
  particle: number,
  name: string,
): Promise<SimulationParticle> {
  return apiCall(
    endpoints.renameParticle,
    { deviceId, projectId, simulationId, object, particle: String(particle) },
    { body: { name }, schema: simulationParticleSchema },
  );
}

/** Answers asked for before their use (`fetchAhead`), each handed to the first `fetchBytes` of the same URL. */
const ahead = new Map<string, Promise<ArrayBuffer>>();
const aheadKept = 8;

/**
 * Starts fetching `url` now, for a `fetchBytes(url)` that comes later: the results page asks for its first frame and
 * its monitors as soon as the results arrive, while it renders, instead of from the panels' effects after the render.
 */
export function fetchAhead(url: string): void {
  if (ahead.has(url)) return;
  if (ahead.size >= aheadKept) ahead.delete(ahead.keys().next().value!);
  const answer = fetchBytes(url);
  answer.catch(() => ahead.delete(url));
  ahead.set(url, answer);
}

/** A binary or text answer of the API (frames, monitors.csv), errors as ApiError like apiFetch's. */
export async function fetchBytes(url: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const early = ahead.get(url);
  if (early) {
    ahead.delete(url);
    return early;
  }
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, clientErrorCodes.network, 'The server could not be reached.');
  }
  await checkMaintenanceAnswer(response);
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(
      response.status,
      body?.error?.code ?? clientErrorCodes.http,
      body?.error?.message ?? `The results could not be loaded (status ${response.status}).`,
    );
  }
  return response.arrayBuffer();
}

/** The address of some columns of one frame. */
export function columnsUrl(frameUrl: string, names: readonly string[]): string {
  return `${frameUrl}?columns=${names.join(',')}`;
}

/** Some columns of one frame (`?columns=`), split per column. */
export async function fetchColumns(
  frameUrl: string,
  object: ResultObject,
  count: number,
  names: readonly string[],
  signal?: AbortSignal,
): Promise<Record<string, ColumnValues>> {
  const bytes = await fetchBytes(columnsUrl(frameUrl, names), signal);
  return splitColumns(bytes, object, count, names);
}
