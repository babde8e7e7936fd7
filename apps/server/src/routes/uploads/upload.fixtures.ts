import { tusVersion } from '@insilico/contracts';
import { expect } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';

/** Fixtures of the upload and device-version suites: a small tus client over the test browser. */

export const tus = { 'tus-resumable': tusVersion };

/** `Upload-Metadata` of a file name (and more pairs). */
export function metadataOf(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

export function createUpload(
  browser: TestBrowser,
  deviceId: string,
  length: number,
  fileName: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return browser.request(`/api/devices/${deviceId}/uploads`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(length),
      'upload-metadata': metadataOf({ filename: fileName }),
      ...headers,
    },
  });
}

export function patchUpload(
  browser: TestBrowser,
  location: string,
  offset: number,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  return browser.request(location, {
    method: 'PATCH',
    headers: {
      ...tus,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      ...headers,
    },
    body: bytes,
  });
}

/** Uploads a whole file in PATCHes of `chunk` bytes; answers the upload id. */
export async function uploadFile(
  browser: TestBrowser,
  deviceId: string,
  fileName: string,
  bytes: Uint8Array,
  chunk = 64 * 1024,
): Promise<string> {
  const created = await createUpload(browser, deviceId, bytes.length, fileName);
  expect(created.status, await created.clone().text()).toBe(201);
  const location = created.headers.get('location')!;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    const part = bytes.subarray(offset, Math.min(bytes.length, offset + chunk));
    const patched = await patchUpload(browser, location, offset, part);
    expect(patched.status, await patched.clone().text()).toBe(204);
    expect(patched.headers.get('upload-offset')).toBe(String(offset + part.length));
  }
  return location.split('/').pop()!;
}
