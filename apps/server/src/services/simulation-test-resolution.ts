import type { SettingsRepository } from '../repositories/settings.repository';

/**
 * The operator's switch of the 'test' resolution per workspace (journeys, demonstrations): a run of seconds that shows
 * nothing of the anatomy's flow, so people never see it unless an operator turns it on (docs/decisions/
 * simulations-pages.md). Kept in app_settings; set by the operator route and `npm run operator -- simulation-test-
 * resolution`, read by the simulation service.
 */
const key = (deviceId: string) => `simulations.test-resolution.${deviceId}`;

export async function testResolutionAllowed(settings: Pick<SettingsRepository, 'get'>, deviceId: string) {
  return (await settings.get<boolean>(key(deviceId))) === true;
}

export async function setTestResolution(
  settings: Pick<SettingsRepository, 'set'>,
  deviceId: string,
  allowed: boolean,
): Promise<{ deviceId: string; testResolution: boolean }> {
  await settings.set(key(deviceId), allowed);
  return { deviceId, testResolution: allowed };
}
