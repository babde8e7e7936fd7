import type { CohortPatientPage, Room } from '@insilico/contracts';
import { expect } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { json } from '../devices/workspace.fixtures';

/**
 * Fixtures of the room API suites. Projects and device versions are written straight into their tables
 * (test/factories), so these suites test rooms alone, whatever state the project and device-version APIs are in.
 */

/** The `SYN-…` ids of a ready cohort's patients. */
export async function patientIdsOf(browser: TestBrowser, deviceId: string, cohortId: string): Promise<string[]> {
  const page = await json<CohortPatientPage>(
    await browser.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients?pageSize=10`),
  );
  return page.items.map((patient) => patient.id);
}

export function roomsPathOf(deviceId: string, projectId: string): string {
  return `/api/devices/${deviceId}/projects/${projectId}/rooms`;
}

export async function createRoom(
  browser: TestBrowser,
  deviceId: string,
  projectId: string,
  body: Record<string, unknown>,
): Promise<Room> {
  const response = await browser.postJson(roomsPathOf(deviceId, projectId), body);
  expect(response.status).toBe(201);
  return json<Room>(response);
}

/** Sends bytes as the scene's screenshot upload does: `fetch(url, { method: 'POST', body: blob })`. */
export async function postBytes(
  browser: TestBrowser,
  path: string,
  bytes: Uint8Array,
  contentType = 'image/png',
): Promise<Response> {
  const headers: Record<string, string> = { origin: browser.origin, 'content-type': contentType };
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  if (cookie) headers.cookie = cookie;
  return fetch(new URL(path, browser.origin), { method: 'POST', headers, body: bytes, redirect: 'manual' });
}

/** A transform in the scene's units: position mm, unit quaternion [x, y, z, w], scale. */
export function transform(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { position: [1.5, -20, 34], quaternion: [0, 0, Math.SQRT1_2, Math.SQRT1_2], scale: [1, 1, 1], ...overrides };
}
