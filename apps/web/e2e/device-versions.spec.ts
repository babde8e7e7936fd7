import { expect, test } from '@playwright/test';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL): a member uploads a new device version (a binary and an ASCII STL
// of a 10 mm cube) with tus, sees it processing, gets the notification, and finds it with metrics and previews;
// a second version with a truncated file fails with the spec's message and the file's reason.

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

function binaryCube(): Buffer {
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

function asciiCube(): Buffer {
  const lines = ['solid cube'];
  for (const triangle of triangles) {
    lines.push('facet normal 0 0 0', 'outer loop');
    for (const corner of triangle) lines.push(`vertex ${corners[corner]!.join(' ')}`);
    lines.push('endloop', 'endfacet');
  }
  lines.push('endsolid cube', '');
  return Buffer.from(lines.join('\n'));
}

const specFailure =
  'Something went wrong. Please check whether one of the files is corrupted and try to upload it again.';

test('a member uploads a device version, is notified when it is processed, and sees metrics and previews', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const versionName = `Valve Gen ${Date.now()}`;
  await signUp(page, '/help', 'Dora Device');
  await createWorkspace(page, `Valve D ${Date.now()}`);

  await page.goto('/device-versions');
  await expect(page.getByRole('heading', { name: 'No device versions yet' })).toBeVisible();
  await page.getByRole('link', { name: 'New device version' }).first().click();
  await expect(page).toHaveURL(/\/device-versions\/new$/);

  await page.getByLabel('Device version name').fill(versionName);
  await expect(page.getByText('This name is free.')).toBeVisible();
  await page.getByLabel('Description').fill('26 mm frame, first iteration');
  await page.getByLabel('3D model files (.stl)').setInputFiles([
    { name: 'frame.stl', mimeType: 'model/stl', buffer: binaryCube() },
    { name: 'leaflets-ascii.stl', mimeType: 'model/stl', buffer: asciiCube() },
  ]);
  const files = page.getByRole('list', { name: 'Files of the device version' });
  await expect(files.getByText('Uploaded')).toHaveCount(2, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Create device version' }).click();

  // The list opens with the new version; processing ends with a notification.
  await expect(page).toHaveURL(/\/device-versions\?version=[\w-]+$/);
  const card = page.getByRole('article', { name: versionName });
  await expect(card).toBeVisible();
  const bell = page.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 120_000 });
  await expect(card.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await bell.click();
  await expect(page.getByText(`Device version ${versionName} is ready`)).toBeVisible();
  await page.keyboard.press('Escape');

  // Both files measured: the cube's numbers, a preview image that loaded, a download of the original.
  await expect(card.getByText('12 triangles · binary STL')).toBeVisible();
  await expect(card.getByText('12 triangles · ASCII STL')).toBeVisible();
  await expect(card.getByText('Volume 1,000 mm³')).toHaveCount(2);
  await expect(card.getByText('Surface area 600 mm²')).toHaveCount(2);
  await expect(card.getByText('Size 10 × 10 × 10 mm')).toHaveCount(2);
  const preview = card.getByRole('img', { name: 'Preview of frame.stl' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  const download = page.waitForEvent('download');
  await card.getByRole('link', { name: 'Download frame.stl' }).click();
  expect((await download).suggestedFilename()).toBe('frame.stl');

  // The name is taken now, in any letter case.
  await page.goto('/device-versions/new');
  await page.getByLabel('Device version name').fill(versionName.toUpperCase());
  await expect(
    page.getByText('Device version with this name already exists. Please change name to proceed.'),
  ).toBeVisible();

  // A corrupted file: the version fails with the spec message and the file's reason.
  const brokenName = `${versionName} broken`;
  await page.getByLabel('Device version name').fill(brokenName);
  await page
    .getByLabel('3D model files (.stl)')
    .setInputFiles([{ name: 'cut-off.stl', mimeType: 'model/stl', buffer: binaryCube().subarray(0, 300) }]);
  await expect(files.getByText('Uploaded')).toHaveCount(1, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Create device version' }).click();
  const broken = page.getByRole('article', { name: brokenName });
  await expect(broken.getByText('Failed', { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(broken.getByText(specFailure)).toBeVisible();
  await expect(broken.getByText(/cut-off\.stl:/)).toBeVisible();
  await expect(broken.getByText(/The file is truncated: its header announces 12 triangles/).first()).toBeVisible();
});
