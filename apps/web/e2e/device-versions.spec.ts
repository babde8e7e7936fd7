import { expect, test } from '@playwright/test';
import { asciiCube, binaryCube } from './stl-helpers';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL): a member uploads a new device version (a binary and an ASCII STL
// of a 10 mm cube) with tus, sees it processing, gets the notification, and finds it with metrics and previews;
// a second version with a truncated file fails with the spec's message and the file's reason.

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
