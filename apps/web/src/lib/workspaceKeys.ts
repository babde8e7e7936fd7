/**
 * SWR keys (and URLs) of the signed-in user's workspaces and the selected one. Here rather than in
 * features/devices so that the onboarding can revalidate them after creating a workspace without
 * importing devices, which shows the onboarding's steps (Add device).
 */
export const devicesKey = '/api/devices';
export const selectedDeviceKey = '/api/me/selected-device';
