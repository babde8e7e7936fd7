import type { Page } from '@playwright/test';
import { expect } from './csp';
import { api, operatorRequest } from './workspace-helpers';

/**
 * The operator's switch of the 'test' resolution (a run of seconds, docs/decisions/simulations.md) for one
 * workspace: journeys turn it on for their own workspace only.
 */
export async function allowTestResolution(deviceId: string): Promise<void> {
  const turnedOn = await operatorRequest('POST', '/api/operator/simulation-test-resolution', {
    deviceId,
    enabled: true,
  });
  expect(turnedOn.status, await turnedOn.text()).toBe(200);
}

/** A room on the first patient of a ready cohort, made through the API; answers its id. */
export async function roomOnFirstPatient(
  page: Page,
  deviceId: string,
  projectId: string,
  cohortId: string,
  name: string,
): Promise<string> {
  const patients = (await (
    await page.request.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients?pageSize=10`)
  ).json()) as { items: { id: string }[] };
  const room = await api(page, 'POST', `/api/devices/${deviceId}/projects/${projectId}/rooms`, {
    cohortId,
    patientId: patients.items[0]!.id,
    name,
  });
  return room.id as string;
}
