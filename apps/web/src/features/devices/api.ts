import useSWR, { preload } from 'swr';
import {
  deviceEndpoints,
  deviceListSchema,
  selectedDeviceSchema,
  type DeviceList,
  type SelectedDevice,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import { rememberSelectedDevice } from '../../lib/earlyRequests';
import type { ApiError } from '../../lib/apiError';
import { devicesKey, selectedDeviceKey } from '../../lib/workspaceKeys';

export { devicesKey, selectedDeviceKey };

// Read by the shell on every page: a 401 is left to the page and the profile call (see lib/api.ts).
const fetchDevices = (url: string): Promise<DeviceList> =>
  apiFetch(url, { schema: deviceListSchema, redirectOnUnauthenticated: false });
async function fetchSelectedDevice(url: string): Promise<SelectedDevice> {
  const selected = await apiFetch(url, { schema: selectedDeviceSchema, redirectOnUnauthenticated: false });
  rememberSelectedDevice(selected.device?.deviceId ?? null);
  return selected;
}

/** `GET /api/devices`: every workspace the user belongs to (any membership status). */
export function useDevices() {
  return useSWR<DeviceList, ApiError>(devicesKey, fetchDevices);
}

/** `GET /api/me/selected-device`: the workspace the user works in, or null. */
export function useSelectedDevice() {
  return useSWR<SelectedDevice, ApiError>(selectedDeviceKey, fetchSelectedDevice);
}

/**
 * Asks for the workspaces and the selected one at once, at start-up: the shell and most pages need both, and
 * asking before the components mount saves a round trip after the profile call (SWR hands the answers over).
 */
export function preloadWorkspaces(): void {
  void preload(devicesKey, fetchDevices);
  void preload(selectedDeviceKey, fetchSelectedDevice);
}

/** `PUT /api/me/selected-device`. */
export async function selectDevice(deviceId: string): Promise<SelectedDevice> {
  const selected = await apiCall(deviceEndpoints.select, {}, { body: { deviceId }, schema: selectedDeviceSchema });
  rememberSelectedDevice(selected.device?.deviceId ?? null);
  return selected;
}
