import { describe, expect, it } from 'vitest';
import {
  devicesKey,
  isMembershipKey,
  isPeopleKey,
  isWorkspaceProjectsKey,
  selectedDeviceKey,
  subscriptionKey,
} from './workspaceKeys';

/**
 * The keys and key filters of the workspaces, built from the contracts' endpoints: the same URLs and the same
 * choices as the hand-written ones they replace (docs/decisions/endpoints-in-contracts.md).
 */
const deviceId = '6f1c2a7e-0b7d-4c55-9d0e-4a8b3c2d1e0f';

describe('workspace keys', () => {
  it('are the endpoints’ URLs', () => {
    expect(devicesKey).toBe('/api/devices');
    expect(selectedDeviceKey).toBe('/api/me/selected-device');
    expect(subscriptionKey(deviceId)).toBe(`/api/devices/${deviceId}/subscription`);
  });

  it('membership: the workspaces, the selected one, each team and its seats, nothing else', () => {
    for (const key of [
      devicesKey,
      selectedDeviceKey,
      `/api/devices/${deviceId}/team`,
      `/api/devices/${deviceId}/subscription`,
    ])
      expect(isMembershipKey(key), key).toBe(true);
    for (const key of [
      `/api/devices/${deviceId}`,
      `/api/devices/${deviceId}/team/extra`,
      `/api/devices/${deviceId}/projects/overview`,
      '/api/devices//team',
      '/api/me/profile',
      ['/api/devices'],
      null,
    ])
      expect(isMembershipKey(key), String(key)).toBe(false);
  });

  it('people: every key of a workspace, not the workspace list or the user’s own keys', () => {
    for (const key of [
      `/api/devices/${deviceId}`,
      `/api/devices/${deviceId}/team`,
      `/api/devices/${deviceId}/projects/p-1/rooms?page=2`,
    ])
      expect(isPeopleKey(key), key).toBe(true);
    for (const key of [devicesKey, selectedDeviceKey, '/api/me/profile', '/api/notifications', undefined])
      expect(isPeopleKey(key), String(key)).toBe(false);
  });

  it('workspace projects: the project lists and projects of that workspace only', () => {
    const isProjects = isWorkspaceProjectsKey(deviceId);
    expect(isProjects(`/api/devices/${deviceId}/projects/overview?status=active`)).toBe(true);
    expect(isProjects(`/api/devices/${deviceId}/projects/p-1/team`)).toBe(true);
    expect(isProjects(`/api/devices/${deviceId}/team`)).toBe(false);
    expect(isProjects('/api/devices/another/projects/overview')).toBe(false);
  });
});
