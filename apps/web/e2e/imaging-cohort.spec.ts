import { expect as baseExpect, test } from '@playwright/test';
import { hostileCt, part10, type PatientSpec } from '@insilico/dicom/testing';
import { writeBinaryStl } from '@insilico/mesh';
import { zipOf } from './imaging-helpers';
import { createWorkspace, operatorRequest, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 19's journey through the project wizard: a
// 3-patient CT zip made here is read (tree with thumbnails), its tags to change shown, anonymized and uploaded; the
// tab is closed while the server holds half the bytes, and a new tab resumes from there; support staff deliver the
// patient models; the imaging cohort is ready and its series open in the slice viewer.

const expect = baseExpect.configure({ timeout: 30_000 });

const patient = (n: number, instance: number): PatientSpec => ({
  name: `WIZARD${n}^PATIENT`,
  id: `MRN-W${n}`,
  birthDate: '19600606',
  studyUid: `1.2.826.0.1.3680043.13.${n}`,
  studyDate: '20240303',
  seriesUid: `1.2.826.0.1.3680043.13.${n}.1`,
  sopUid: `1.2.826.0.1.3680043.13.${n}.1.${instance}`,
  seriesDescription: 'Arterial phase',
  instanceNumber: instance,
});

/** Three patients, three 32 × 32 images each (the pixels make the zip large enough to send in two halves). */
const ctZip = () =>
  zipOf(
    [1, 2, 3].flatMap((n) =>
      [1, 2, 3].map((i): [string, Uint8Array] => [`P${n}/IM${i}`, part10(hostileCt(patient(n, i), 32, 32))]),
    ),
  );

/** A closed cube surface (12 triangles). */
function cubeStl(): Uint8Array {
  const positions = new Float64Array([0, 0, 0, 9, 0, 0, 9, 9, 0, 0, 9, 0, 0, 0, 9, 9, 0, 9, 9, 9, 9, 0, 9, 9]);
  // prettier-ignore
  const indices = new Uint32Array([
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
    2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3,
  ]);
  return writeBinaryStl({ positions, indices });
}

test('a cohort from own CT images: wizard, tags, upload resumed after a closed tab, models, ready, viewer', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const datasetName = `Wizard CT ${stamp}`;
  const email = await signUp(page, '/help', 'Wim Wizard');
  const deviceId = await createWorkspace(page, `Imaging W ${stamp}`);

  await page.goto('/projects/create');
  await page.getByRole('textbox', { name: 'Project title' }).fill(`Own images ${stamp}`.slice(0, 50));
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/patient-cohort-list$/);
  await page.getByRole('button', { name: 'Use your own imaging data' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/select-upload-new-cohort-data-type$/);
  await page.getByRole('button', { name: /Your imaging data as a \.zip/ }).click();
  await expect(page).toHaveURL(/\/projects\/create\/upload-imaging-data$/);
  await page
    .getByLabel('Zip of DICOM images')
    .setInputFiles({ name: 'ct-export.zip', mimeType: 'application/zip', buffer: await ctZip() });
  await expect(page.getByTestId('imaging-patient')).toHaveCount(3, { timeout: 60_000 });
  await expect(page.getByText('Arterial phase · CT · 3 images')).toHaveCount(3);
  await expect(page.getByTestId('series-thumbnail')).toHaveCount(3);
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page).toHaveURL(/\/projects\/create\/anonymize-data$/);
  const tags = page.getByTestId('tags-to-anonymize').first();
  await expect(tags.getByRole('row', { name: /\(0010,0010\) Patient's Name Emptied/ })).toBeVisible();
  await page.getByLabel('Dataset name').fill(datasetName);

  // The first piece reaches the server only half (the rest "lost"), and the tab is closed while it waits.
  let sentFirst = 0;
  let held!: () => void;
  const heldReached = new Promise<void>((resolve) => (held = resolve));
  await page.route(/\/api\/devices\/[\w-]+\/uploads\/[\w-]+$/, async (route) => {
    const request = route.request();
    if (request.method() !== 'PATCH') return route.continue();
    const body = request.postDataBuffer() ?? Buffer.alloc(0);
    const half = body.subarray(0, Math.floor(body.length / 2));
    sentFirst = half.length;
    await route.fetch({ postData: half, headers: { ...request.headers(), 'content-length': String(half.length) } });
    held(); // and no answer to the page
  });
  await page.getByRole('button', { name: 'Anonymize and upload' }).click();
  await heldReached;
  expect(sentFirst).toBeGreaterThan(0);
  await page.close({ runBeforeUnload: false });

  // A new tab: the wizard continues at the cohorts and offers the interrupted upload.
  const again = await context.newPage();
  const resumedAt: string[] = [];
  again.on('request', (request) => {
    if (request.method() === 'PATCH' && /\/uploads\//.test(request.url()))
      resumedAt.push(request.headers()['upload-offset'] ?? '');
  });
  await again.goto('/projects/create');
  await expect(again).toHaveURL(/\/projects\/create\/patient-cohort-list$/);
  const interrupted = again.getByTestId('interrupted-upload');
  await expect(interrupted).toContainText(datasetName);
  await interrupted.getByRole('button', { name: 'Resume upload' }).click();
  const dataset = again.getByRole('checkbox', { name: new RegExp(datasetName) });
  await expect(dataset).toBeChecked({ timeout: 60_000 });
  // The resumed upload started where the server stopped, not from the first byte.
  expect(resumedAt[0]).toBe(String(sentFirst));
  await expect(again.getByText('Modelling in progress')).toBeVisible({ timeout: 60_000 });
  const { items } = (await (await again.request.get(`/api/devices/${deviceId}/imaging-datasets`)).json()) as {
    items: { id: string; name: string }[];
  };
  const datasetId = items.find((d) => d.name === datasetName)!.id;

  // The rest of the wizard: the project is made with the imaging dataset as its cohort.
  await again.getByRole('button', { name: 'Next' }).click();
  await expect(again).toHaveURL(/\/projects\/create\/question-of-interest$/);
  await again.getByRole('button', { name: 'New question of interest' }).click();
  await again.getByRole('textbox', { name: 'Question of interest' }).fill('Does the frame fit these patients?');
  await again.getByRole('button', { name: 'Save question' }).click();
  await again.getByRole('button', { name: 'Next' }).click();
  await expect(again).toHaveURL(/\/projects\/create\/device-version$/);
  await again.getByRole('button', { name: 'Next' }).click();
  await again.getByRole('button', { name: 'Create project' }).click();
  await expect(again).toHaveURL(/\/projects\/view\/stats\?project=[\w-]+$/);
  const imaging = again.getByRole('region', { name: 'Imaging cohorts' });
  await expect(imaging.getByRole('link', { name: datasetName })).toBeVisible();
  await expect(imaging).toContainText('3 patients · Modelling in progress');

  // Support staff: the queue, the models delivered — checked by a job; a refused delivery names the file first.
  expect((await operatorRequest('POST', '/api/operator/support-staff', { email, isSupport: true })).status).toBe(200);
  await again.goto('/support-inbox/imaging');
  const row = again.getByRole('row', { name: new RegExp(datasetName) });
  await expect(row).toContainText('3 patients · 3 series · 9 files');
  await row.getByLabel(`Patient models of ${datasetName}`).setInputFiles({
    name: 'models.zip',
    mimeType: 'application/zip',
    buffer: await zipOf([['P1/aorta_systole.stl', cubeStl()]]),
  });
  await expect(row.getByText('The models were not accepted:')).toBeVisible();
  await expect(row.getByText('P1/landmarks.json')).toBeVisible();
  const models = await zipOf(
    ['P1', 'P2', 'P3'].flatMap((p): [string, Uint8Array][] => [
      [`${p}/aorta_systole.stl`, cubeStl()],
      [`${p}/landmarks.json`, new TextEncoder().encode('{"landmarks":[{"name":"annulus","position":[1,2,3]}]}')],
    ]),
  );
  await row
    .getByLabel(`Patient models of ${datasetName}`)
    .setInputFiles({ name: 'models.zip', mimeType: 'application/zip', buffer: models });
  await expect(
    again.getByText(`The models of ${datasetName} were accepted: the imaging cohort is ready.`),
  ).toBeVisible();

  // The dataset page: ready, and the slice viewer shows the three planes.
  await again.goto(`/upload-images/success?dataset=${datasetId}`);
  await expect(again.getByTestId('imaging-cohort-ready')).toContainText('patient models of 3 patients (aorta systole)');
  const viewer = again.getByTestId('slice-viewer');
  // The description went with de-identification (the Basic Profile removes Series Description).
  await expect(viewer.getByText(/Series without description · CT · 3 images/)).toBeVisible({ timeout: 60_000 });
  for (const plane of ['axial', 'coronal', 'sagittal'])
    await expect(viewer.getByTestId(`slice-${plane}`)).toBeVisible();
  await viewer.getByRole('button', { name: 'Bone' }).click();
  await expect(viewer.getByText(/window 400\/1800/)).toBeVisible();
});
