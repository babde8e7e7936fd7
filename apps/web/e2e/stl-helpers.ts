import { expect, type Page } from '@playwright/test';
import { api, tusUpload } from './workspace-helpers';

/** STL files the journeys upload (made here, so no binary fixture is checked in), and a version made of one. */

/** A 10 mm cube: 8 corners, 12 outward triangles. */
const corners = [
  [0, 0, 0],
  [10, 0, 0],
  [10, 10, 0],
  [0, 10, 0],
  [0, 0, 10],
  [10, 0, 10],
  [10, 10, 10],
  [0, 10, 10],
] as const;
// prettier-ignore
const triangles = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [2, 3, 7], [2, 7, 6], [1, 2, 6], [1, 6, 5], [0, 4, 7], [0, 7, 3]];

export function binaryCube(): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles.length);
  bytes.write('binary cube', 0, 'ascii');
  bytes.writeUInt32LE(triangles.length, 80);
  triangles.forEach((triangle, t) => {
    triangle.forEach((corner, k) =>
      corners[corner]!.forEach((value, axis) => bytes.writeFloatLE(value, 84 + 50 * t + 12 + 12 * k + 4 * axis)),
    );
  });
  return bytes;
}

export function asciiCube(): Buffer {
  const lines = ['solid cube'];
  for (const triangle of triangles) {
    lines.push('facet normal 0 0 0', 'outer loop');
    for (const corner of triangle) lines.push(`vertex ${corners[corner]!.join(' ')}`);
    lines.push('endloop', 'endfacet');
  }
  lines.push('endsolid cube', '');
  return Buffer.from(lines.join('\n'));
}

/** Uploads the STL with tus and creates a version for the project; waits until it is processed; answers its id. */
export async function readyVersion(
  page: Page,
  deviceId: string,
  projectId: string,
  name: string,
  stl: Buffer,
): Promise<string> {
  const uploadId = await tusUpload(page, deviceId, stl, { filename: 'valve.stl' });
  const version = await api(page, 'POST', `/api/devices/${deviceId}/device-versions`, {
    name,
    description: 'Sizing prototype',
    uploadIds: [uploadId],
    targetProjectId: projectId,
  });
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`/api/devices/${deviceId}/device-versions/${version.id as string}`)
          ).json()) as {
            status: string;
          }
        ).status,
      { timeout: 90_000, intervals: [500] },
    )
    .toBe('ready');
  return version.id as string;
}
