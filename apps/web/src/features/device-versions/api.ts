import useSWR, { mutate as mutateGlobal } from 'swr';
import {
  deviceVersionEndpoints as endpoints,
  deviceVersionIdsMax,
  pathOf,
  projectEndpoints,
  uploadEndpoints,
  deviceVersionListSchema,
  deviceVersionNameAvailabilitySchema,
  deviceVersionSchema,
  type CreateDeviceVersion,
  type DeviceVersion,
  type DeviceVersionList,
  type DeviceVersionNameAvailability,
  type DeviceVersionStatus,
} from '@insilico/contracts';
import { trackAfter } from '../../lib/analytics';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

export interface DeviceVersionQuery {
  search: string;
  status: readonly DeviceVersionStatus[];
  /** Only these versions (the chosen ones, whatever page they are on); omitted: any. */
  ids?: readonly string[];
  page: number;
  pageSize: number;
}

/** URLs of the device-version API of one workspace (SWR keys; the definitions are `deviceVersionEndpoints`). */
export const deviceVersionUrls = {
  list: (deviceId: string, query: DeviceVersionQuery) =>
    pathOf(
      endpoints.list,
      { deviceId },
      {
        search: query.search,
        status: query.status.join(','),
        ids: query.ids?.length ? query.ids.join(',') : undefined,
        page: query.page,
        pageSize: query.pageSize,
      },
    ),
  nameAvailable: (deviceId: string, name: string) => pathOf(endpoints.nameAvailable, { deviceId }, { name }),
  uploads: (deviceId: string) => pathOf(uploadEndpoints.create, { deviceId }),
};

/** While a version is processing its list follows it; ready and failed ones do not change any more. */
const processingRefreshMs = 1500;
const following = (busy: (data: DeviceVersionList | undefined) => boolean) => ({
  refreshInterval: (data: DeviceVersionList | undefined) => (busy(data) ? processingRefreshMs : 0),
  // The app dedupes for 60 s (spec §7); polling needs each tick to reach the server.
  dedupingInterval: processingRefreshMs - 500,
  keepPreviousData: true,
});

export const isProcessing = (version: DeviceVersion) =>
  version.status === 'processing' || version.status === 'uploading';

export function useDeviceVersions(deviceId: string | null, query: DeviceVersionQuery) {
  return useSWR<DeviceVersionList, ApiError>(
    deviceId ? deviceVersionUrls.list(deviceId, query) : null,
    (url: string) => apiFetch(url, { schema: deviceVersionListSchema }),
    following((data) => data?.items.some(isProcessing) ?? false),
  );
}

/**
 * The chosen versions as they are now (any status; a deleted one is simply absent), so a chooser can show a chosen
 * version that failed or vanished instead of counting it silently. Null key when nothing is chosen.
 */
export function useChosenDeviceVersions(deviceId: string | null, ids: readonly string[]) {
  const sorted = [...ids].sort().slice(0, deviceVersionIdsMax);
  return useSWR<DeviceVersionList, ApiError>(
    deviceId && sorted.length > 0
      ? deviceVersionUrls.list(deviceId, { search: '', status: [], ids: sorted, page: 1, pageSize: 100 })
      : null,
    (url: string) => apiFetch(url, { schema: deviceVersionListSchema }),
    // Not the previous ids' answer while the new one loads: a newly chosen version would look deleted.
    { ...following((data) => data?.items.some(isProcessing) ?? false), keepPreviousData: false },
  );
}

/** The chosen versions that cannot join a project: failed ones and ones that no longer exist. */
export function unusableVersionIds(ids: readonly string[], found: readonly DeviceVersion[]): string[] {
  return ids.filter((id) => {
    const version = found.find((item) => item.id === id);
    return !version || version.status === 'failed';
  });
}

/** Reads the chosen versions once (the wizard, right before it creates the project). */
export async function fetchChosenDeviceVersions(deviceId: string, ids: readonly string[]): Promise<DeviceVersion[]> {
  if (ids.length === 0) return [];
  const url = deviceVersionUrls.list(deviceId, { search: '', status: [], ids, page: 1, pageSize: 100 });
  return (await apiFetch(url, { schema: deviceVersionListSchema })).items;
}

/**
 * Deletes a version (a failed one, or a ready one no room uses; the server says why not, 409). Every list of the
 * workspace's versions and every project answer (they list their versions) reload.
 */
export async function deleteDeviceVersion(deviceId: string, versionId: string): Promise<void> {
  await apiCall(endpoints.remove, { deviceId, versionId });
  await refreshDeviceVersions(deviceId);
}

/** Every list of the workspace's versions (the page, the wizard's chooser) and every project answer reload. */
function refreshDeviceVersions(deviceId: string): Promise<unknown> {
  const versions = pathOf(endpoints.list, { deviceId });
  const projects = pathOf(projectEndpoints.list, { deviceId });
  return mutateGlobal(
    (key) =>
      typeof key === 'string' &&
      (key.startsWith(`${versions}?`) || key.startsWith(`${versions}/`) || key.startsWith(projects)),
  );
}

export function checkVersionName(
  deviceId: string,
  name: string,
  signal: AbortSignal,
): Promise<DeviceVersionNameAvailability> {
  return apiFetch(deviceVersionUrls.nameAvailable(deviceId, name), {
    schema: deviceVersionNameAvailabilitySchema,
    signal,
  });
}

/** Creates a version (and adds it to a project when asked); the lists that show versions reload. */
export async function createDeviceVersion(deviceId: string, body: CreateDeviceVersion): Promise<DeviceVersion> {
  const version = await apiCall(endpoints.create, { deviceId }, { body, schema: deviceVersionSchema }).then(
    trackAfter('device version created', (created) => ({ deviceId, versionId: created.id })),
  );
  await refreshDeviceVersions(deviceId);
  return version;
}
