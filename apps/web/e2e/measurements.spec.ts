import { readFileSync } from 'node:fs';
import { orderReadyCohort } from './cohort-helpers';
import { createWorkspace, operatorRequest, signUp } from './workspace-helpers';
import { expect, test } from './csp';

// Issue 23 against the real server: a 20-patient cohort (ordered through the cohort API), then in the browser
// select it, choose the SCCT TAVI set, define an annulus area measurement in the new-measurement drawer and edit it
// into version 2 (an annulus perimeter), define a distance between points picked on a patient's surface (a click in
// the 3D view, a landmark from the keyboard; a point off the surface refused), order,
// follow the job to the results table, download the CSV (units in the headers), correct one patient's annular
// plane on the page and see the corrected cell marked with who corrected it; a workspace
// on the trial plan sees the spec's message.

test('orders the TAVI set and an own measurement on 20 patients, reads results and CSV; the trial plan sees the message', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await signUp(page, '/', 'Mara Measure');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(page, `Valve M ${Date.now()}`);
  const cohortName = `Measured 20 ${Date.now()}`;
  const cohortId = await orderReadyCohort(page, deviceId, { name: cohortName, size: 20, timeoutMs: 240_000 });

  await page.goto('/patient-cohort');
  await page.getByRole('link', { name: 'Measurements' }).click();
  await expect(page).toHaveURL(/\/measurement\/select-patient-cohort$/);
  await page.getByRole('link', { name: `Measure ${cohortName}` }).click();
  await expect(page).toHaveURL(/\/measurement\/define\?/);
  await page.getByRole('button', { name: 'Choose the whole set' }).click();

  await page.getByRole('button', { name: 'New measurement' }).click();
  const drawer = page.getByRole('form', { name: 'New measurement' });
  await drawer.getByLabel('Name').fill('My annulus area');
  await drawer.getByRole('button', { name: 'Save measurement' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByLabel(/^My annulus area/)).toBeChecked();

  // Editing it makes version 2, which takes its place in the selection.
  await page.getByRole('button', { name: 'Edit My annulus area' }).click();
  const editor = page.getByRole('form', { name: 'Edit measurement' });
  await expect(
    editor.getByText('Saving makes version 2; orders keep the version they were measured with.'),
  ).toBeVisible();
  await editor.getByLabel('Name').fill('My annulus perimeter');
  await editor.getByLabel('Quantity').click();
  await page.getByRole('option', { name: 'perimeter', exact: true }).click();
  await editor.getByRole('button', { name: 'Save measurement' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByLabel(/^My annulus perimeter \(mm, end-systole, version 2\)/)).toBeChecked();

  // A measurement on points picked on a patient's surface: one clicked in the 3D view, one placed at a landmark
  // from the keyboard; a point off the surface is refused by the server with its reason.
  await page.getByRole('button', { name: 'New measurement' }).click();
  const picker = page.getByRole('form', { name: 'New measurement' });
  await picker.getByLabel('Name').fill('Clicked point to ostium');
  await picker.getByLabel('Heart phase').click();
  await page.getByRole('option', { name: 'end diastole', exact: true }).click();
  await picker.getByLabel('Type').click();
  await page.getByRole('option', { name: 'Distance between two landmarks' }).click();
  const viewer = picker.getByTestId('anatomy-viewer');
  await expect(viewer).toHaveAttribute('data-shown-phase', 'end-diastole', { timeout: 60_000 });
  await viewer.click();
  await expect(picker.getByText(/^Picked point 1: .+ at \(-?\d/)).toBeVisible();
  await picker.getByRole('button', { name: 'Place at the landmark' }).click();
  await expect(picker.getByText(/^Picked point 2: Aortic root at/)).toBeVisible();
  await picker.getByLabel('Landmark', { exact: true }).click();
  await page.getByRole('option', { name: 'sinotubular junction', exact: true }).click();
  await picker.getByRole('button', { name: 'Place at the landmark' }).click();
  const choose = async (field: string, option: string) => {
    await picker.getByLabel(field, { exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  await choose('From', 'Picked point 3');
  await choose('To', 'Picked point 2');
  await picker.getByRole('button', { name: 'Save measurement' }).click();
  await expect(picker.getByRole('alert')).toContainText(
    /^A picked point lies \d+\.\d mm from the aortic root surface of patient SYN-\d{6} at end-diastole/,
  );
  await picker.getByRole('button', { name: 'Remove picked point 3' }).click();
  await choose('From', 'Picked point 1');
  await picker.getByRole('button', { name: 'Save measurement' }).click();
  await expect(picker).toBeHidden();
  await expect(page.getByLabel(/^Clicked point to ostium/)).toBeChecked();

  await page.getByRole('link', { name: /^Continue with \d+ measurements$/ }).click();
  await expect(page).toHaveURL(/\/measurement\/order\?/);
  await expect(page.getByText(`${cohortName}: 20 patients`)).toBeVisible();
  await page.getByRole('button', { name: 'Order measurements' }).click();

  const table = page.getByRole('table', { name: 'Measurement results' });
  await expect(table).toBeVisible({ timeout: 120_000 });
  await expect(table.locator('tbody tr')).toHaveCount(20);
  await expect(table.getByRole('columnheader', { name: 'Aortic annulus area (mm²)' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'My annulus perimeter (mm)' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Clicked point to ostium (mm)' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Distribution of Aortic annulus area' })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toContain('Aortic annulus perimeter (mm)');
  expect(csv[0]).toContain('Left coronary ostium height (mm)');
  expect(csv).toHaveLength(21);

  // Correct the annular plane of one patient with end-systolic images on the page: 1.5 mm higher, 4° tilted.
  const orderId = new URL(page.url()).searchParams.get('order') ?? '';
  const order = (await (await page.request.get(`/api/devices/${deviceId}/measurement-orders/${orderId}`)).json()) as {
    patients: { patientId: string; cells: { value: number | null }[] }[];
  };
  const corrected = order.patients.find((p) => p.cells[0]?.value !== null)?.patientId ?? '';
  expect(corrected).not.toBe('');
  const row = page.getByRole('row').filter({ hasText: corrected });
  await row.getByRole('button', { name: `Correct ${corrected}` }).click();
  const dialog = page.getByRole('dialog', { name: `Correct ${corrected}` });
  await dialog.getByLabel('Raise (mm)').fill('1.5');
  await dialog.getByLabel('Tilt (°)').fill('4');
  await dialog.getByLabel(/Reason for change/).fill('Annular plane placed too low on the end-systolic image.');
  await dialog.getByRole('button', { name: 'Save correction' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText(/ \*$/).first()).toBeVisible();
  await expect(row.getByText(/aortic annulus by Mara Measure/)).toBeVisible();
  await page.reload();
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: corrected })
      .getByText(/aortic annulus by Mara Measure/),
  ).toBeVisible();

  // The same workspace on the trial plan: the spec's message, and the way to ask support.
  const toTrial = await operatorRequest('POST', '/api/operator/subscription', { deviceId, plan: 'trial', seats: 5 });
  expect(toTrial.ok).toBe(true);
  try {
    await page.goto(`/measurement/define?device=${deviceId}&cohort=${cohortId}`);
    await expect(page.getByText('Please send us a message to request measurements.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Send us a message' })).toBeVisible();
  } finally {
    await operatorRequest('POST', '/api/operator/subscription', { deviceId, plan: 'team', seats: 5 });
  }
});
