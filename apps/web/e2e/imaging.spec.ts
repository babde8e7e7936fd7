import { expect, test } from '@playwright/test';
import { cohortNameWarning } from '@insilico/contracts';
import { hostileCt, part10, type PatientSpec } from '@insilico/dicom/testing';
import { zipOf } from './imaging-helpers';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL): a member uploads a 3-patient CT zip made here (names, IDs, dates,
// private tags and UIDs in it), sees the patient → study → series tree and the tags that will change, anonymizes
// in the browser, watches the upload, and sees the server accept the dataset with its counts. An ultrasound loop,
// flagged for burned-in text, starts left out; the member masks two regions of it (one typed, one drawn) and keeps it.

const patient = (n: number, instance: number): PatientSpec => ({
  name: `JOURNEY${n}^PATIENT`,
  id: `MRN-J${n}`,
  birthDate: '19550505',
  studyUid: `1.2.826.0.1.3680043.12.${n}`,
  studyDate: '20240202',
  seriesUid: `1.2.826.0.1.3680043.12.${n}.1`,
  sopUid: `1.2.826.0.1.3680043.12.${n}.1.${instance}`,
  seriesDescription: 'Arterial phase',
  instanceNumber: instance,
});

function ctZip(): Promise<Buffer> {
  const echo = { ...patient(1, 1), seriesUid: '1.2.826.0.1.3680043.12.1.2', sopUid: '1.2.826.0.1.3680043.12.1.2.1' };
  const us = hostileCt({ ...echo, modality: 'US', seriesDescription: 'Echo loop' }, 48, 64);
  return zipOf([
    ...[1, 2, 3].flatMap((n) =>
      [1, 2].map((instance): [string, Uint8Array] => [`P${n}/IM${instance}`, part10(hostileCt(patient(n, instance)))]),
    ),
    ['P1/ECHO1', part10(us)],
    ['README.txt', new TextEncoder().encode('exported for the study')],
  ]);
}

test('a member uploads a 3-patient CT zip, reviews the tree and the tags, anonymizes and uploads it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, '/help', 'Ida Imaging');
  await createWorkspace(page, `Imaging ${Date.now()}`);

  await page.goto('/upload-images');
  await expect(page.getByText('a .zip of at most 1 GB')).toBeVisible();
  await page.getByRole('link', { name: 'Choose imaging data' }).click();
  await expect(page).toHaveURL(/\/upload-images\/upload$/);
  await page
    .getByLabel('Zip of DICOM images')
    .setInputFiles({ name: 'ct-export.zip', mimeType: 'application/zip', buffer: await ctZip() });

  await expect(page).toHaveURL(/\/upload-images\/upload-dicom-images$/, { timeout: 60_000 });
  await expect(page.getByTestId('imaging-patient')).toHaveCount(3);
  await expect(page.getByText('Arterial phase · CT · 2 images')).toHaveCount(3);
  await expect(page.getByText('README.txt')).toBeVisible();

  // The echo loop may show names in its pixels: left out until the member keeps it, here with two regions masked.
  const echo = page.getByRole('checkbox', { name: 'Echo loop · US · 1 image' });
  await expect(echo).not.toBeChecked();
  await page.getByRole('button', { name: 'Mask text in Echo loop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mask text in “Echo loop”' });
  const canvas = dialog.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  await expect(dialog.getByText('64 × 48 pixels')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add a region' }).click();
  await dialog.getByLabel('Height of region 1').fill('8');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.9, { steps: 4 });
  await page.mouse.up();
  await expect(dialog.getByRole('group', { name: 'Region 2' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Mask 2 regions' }).click();
  await expect(page.getByText('2 regions masked')).toBeVisible();
  await echo.check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/upload-images\/anonymize-data$/);
  const tags = page.getByTestId('tags-to-anonymize').first();
  await expect(tags.getByRole('row', { name: /\(0010,0010\) Patient's Name Emptied/ })).toBeVisible();
  await expect(tags.getByRole('row', { name: /\(0008,0018\) SOP Instance UID Replaced by a new UID/ })).toBeVisible();
  await page.getByLabel('Dataset name').fill(`Journey CT ${Date.now()}`);
  // The dataset becomes a patient cohort: the spec's warning that its name cannot change (§5).
  await expect(page.getByText(cohortNameWarning)).toBeVisible();
  await page.getByRole('button', { name: 'Anonymize' }).click();

  await expect(page).toHaveURL(/\/upload-images\/success\?dataset=[\w-]+$/, { timeout: 120_000 });
  await expect(page.getByText(/Every file is anonymized\. 3 patients, 4 series, 7 files\./)).toBeVisible({
    timeout: 60_000,
  });
});
