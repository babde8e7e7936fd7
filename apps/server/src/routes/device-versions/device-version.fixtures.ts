import type { DeviceVersion } from '@insilico/contracts';
import { expect } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { json } from '../devices/workspace.fixtures';
import { uploadFile } from '../uploads/upload.fixtures';

/** Fixtures of the device-version suites. */

export const uniqueName = (prefix = 'Version') => `${prefix} ${Math.random().toString(36).slice(2, 8)}`;

/** Uploads the files with tus and creates a version of them; answers the API's response. */
export async function postVersion(
  browser: TestBrowser,
  deviceId: string,
  files: readonly (readonly [string, Uint8Array])[],
  body: Record<string, unknown> = {},
): Promise<Response> {
  const uploadIds: string[] = [];
  for (const [fileName, bytes] of files) uploadIds.push(await uploadFile(browser, deviceId, fileName, bytes));
  return browser.postJson(`/api/devices/${deviceId}/device-versions`, { name: uniqueName(), uploadIds, ...body });
}

export async function createVersion(
  browser: TestBrowser,
  deviceId: string,
  files: readonly (readonly [string, Uint8Array])[],
  body: Record<string, unknown> = {},
): Promise<DeviceVersion> {
  const response = await postVersion(browser, deviceId, files, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return json<DeviceVersion>(response);
}

/** Polls until processing ended (the job runs in the test server's process). */
export async function processed(browser: TestBrowser, deviceId: string, versionId: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const version = await json<DeviceVersion>(
      await browser.get(`/api/devices/${deviceId}/device-versions/${versionId}`),
    );
    if (version.status === 'ready' || version.status === 'failed') return version;
    if (Date.now() > until)
      throw new Error(`device version ${versionId} still ${version.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
