import useSWR from 'swr';
import {
  deviceEndpoints,
  deviceSchema,
  pathOf,
  pictureEndpoints,
  profileEndpoints,
  pictureSchema,
  profileSchema,
  type Device,
  type Picture,
  type Profile,
  type UpdateDevice,
  type UpdateProfile,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** SWR key (and URL) of the signed-in person's profile. */
export const profileKey = pathOf(profileEndpoints.get, {});
/** SWR key (and URL) of one workspace's details. */
export const deviceKey = (deviceId: string) => pathOf(deviceEndpoints.get, { deviceId });

const fetchProfile = (url: string): Promise<Profile> => apiFetch(url, { schema: profileSchema });
const fetchDevice = (url: string): Promise<Device> => apiFetch(url, { schema: deviceSchema });

/** `GET /api/me/profile`. */
export function useProfile() {
  return useSWR<Profile, ApiError>(profileKey, fetchProfile);
}

/** `PATCH /api/me/profile`: full name and job title. */
export function saveProfile(changes: UpdateProfile): Promise<Profile> {
  return apiCall(profileEndpoints.update, {}, { body: changes, schema: profileSchema });
}

/** `PUT /api/me/picture` with the file as the body. */
export function uploadProfilePicture(file: File): Promise<Picture> {
  return apiCall(pictureEndpoints.uploadProfile, {}, { file, schema: pictureSchema });
}

export function removeProfilePicture(): Promise<Picture> {
  return apiCall(pictureEndpoints.removeProfile, {}, { schema: pictureSchema });
}

/** `GET /api/devices/:id` (every member reads it; admins may change it); `null` id waits. */
export function useDevice(deviceId: string | null) {
  return useSWR<Device, ApiError>(deviceId ? deviceKey(deviceId) : null, fetchDevice);
}

/** `PATCH /api/devices/:id` (admins). */
export function saveDevice(deviceId: string, changes: UpdateDevice): Promise<Device> {
  return apiCall(deviceEndpoints.update, { deviceId }, { body: changes, schema: deviceSchema });
}

/** `PUT /api/devices/:id/picture` (admins) with the file as the body. */
export function uploadDevicePicture(deviceId: string, file: File): Promise<Picture> {
  return apiCall(pictureEndpoints.uploadDevice, { deviceId }, { file, schema: pictureSchema });
}

export function removeDevicePicture(deviceId: string): Promise<Picture> {
  return apiCall(pictureEndpoints.removeDevice, { deviceId }, { schema: pictureSchema });
}
