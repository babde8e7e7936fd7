import useSWR from 'swr';
import {
  deviceVersionListSchema,
  deviceVersionNameAvailabilitySchema,
  deviceVersionSchema,
  type CreateDeviceVersion,
  type DeviceVersion,
  type DeviceVersionList,
  type DeviceVersionNameAvailability,
  type DeviceVersionStatus,
} from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

export interface DeviceVersionQuery {
  search: string;
  status: readonly DeviceVersionStatus[];
  page: number;
  pageSize: number;
}

/** URLs of the device-version API of one workspace. */
export const deviceVersionUrls = {
  list: (deviceId: string, query: DeviceVersionQuery) =>
    `/api/devices/${deviceId}/device-versions?${new URLSearchParams({
      search: query.search,
      status: query.status.join(','),
      page: String(query.page),
      pageSize: String(query.pageSize),
    }).toString()}`,
  create: (deviceId: string) => `/api/devices/${deviceId}/device-versions`,
  one: (deviceId: string, versionId: string) => `/api/devices/${deviceId}/device-versions/${versionId}`,
  nameAvailable: (deviceId: string, name: string) =>
    `/api/devices/${deviceId}/device-versions/name-available?${new URLSearchParams({ name }).toString()}`,
  uploads: (deviceId: string) => `/api/devices/${deviceId}/uploads`,
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

export function createDeviceVersion(deviceId: string, body: CreateDeviceVersion): Promise<DeviceVersion> {
  return apiFetch(deviceVersionUrls.create(deviceId), { method: 'POST', body, schema: deviceVersionSchema });
}
