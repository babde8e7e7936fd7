import useSWR from 'swr';
import {
  deviceSchema,
  pictureSchema,
  profileSchema,
  type Device,
  type Picture,
  type Profile,
  type UpdateDevice,
  type UpdateProfile,
} from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** SWR key (and URL) of the signed-in person's profile. */
export const profileKey = '/api/me/profile';
/** SWR key (and URL) of one workspace's details. */
export const deviceKey = (deviceId: string) => `/api/devices/${deviceId}`;

const fetchProfile = (url: string): Promise<Profile> => apiFetch(url, { schema: profileSchema });
const fetchDevice = (url: string): Promise<Device> => apiFetch(url, { schema: deviceSchema });

/** `GET /api/me/profile`. */
export function useProfile() {
  return useSWR<Profile, ApiError>(profileKey, fetchProfile);
}

/** `PATCH /api/me/profile`: full name and job title. */
export function saveProfile(changes: UpdateProfile): Promise<Profile> {
  return apiFetch(profileKey, { method: 'PATCH', body: changes, schema: profileSchema });
}

/** `PUT /api/me/picture` with the file as the body. */
export function uploadProfilePicture(file: File): Promise<Picture> {
  return apiFetch('/api/me/picture', { method: 'PUT', file, schema: pictureSchema });
}

export function removeProfilePicture(): Promise<Picture> {
  return apiFetch('/api/me/picture', { method: 'DELETE', schema: pictureSchema });
}

/** `GET /api/devices/:id` (every member reads it; admins may change it); `null` id waits. */
export function useDevice(deviceId: string | null) {
  return useSWR<Device, ApiError>(deviceId ? deviceKey(deviceId) : null, fetchDevice);
}

/** `PATCH /api/devices/:id` (admins). */
export function saveDevice(deviceId: string, changes: UpdateDevice): Promise<Device> {
  return apiFetch(deviceKey(deviceId), { method: 'PATCH', body: changes, schema: deviceSchema });
}

/** `PUT /api/devices/:id/picture` (admins) with the file as the body. */
export function uploadDevicePicture(deviceId: string, file: File): Promise<Picture> {
  return apiFetch(`${deviceKey(deviceId)}/picture`, { method: 'PUT', file, schema: pictureSchema });
}

export function removeDevicePicture(deviceId: string): Promise<Picture> {
  return apiFetch(`${deviceKey(deviceId)}/picture`, { method: 'DELETE', schema: pictureSchema });
}
