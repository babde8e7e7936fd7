import type { CohortParameterTable } from '@insilico/contracts';
import { writeBinaryStl } from '@insilico/mesh';
import { expect, test } from './csp';
import { projectWithImagingDataset, zipOf } from './imaging-helpers';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 19: the population analysis of the patients of
// the user's own imaging. Support staff deliver 22 patients' LV blood pools at end-diastole and end-systole (cubes
// whose volumes the test knows), and the user starts an analysis on the imaging cohort: it is labelled as their own
// imaging data (never synthetic), analyses what was measured on the surfaces, and its stroke volume mean is the one
// computed here from the cubes.

const patients = 22;
/** Patient i's cube sides (mm): end-diastole 40 + i, end-systole 30 + i / 2. */
const sides = Array.from({ length: patients }, (_, k) => ({ ed: 40 + k + 1, es: 30 + (k + 1) / 2 }));

/** A closed cube surface of side `s` mm (12 triangles). */
function cubeStl(s: number): Uint8Array {
  const positions = new Float64Array([0, 0, 0, s, 0, 0, s, s, 0, 0, s, 0, 0, 0, s, s, 0, s, s, s, s, 0, s, s]);
  // prettier-ignore
  const indices = new Uint32Array([
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
    2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3,
  ]);
  return writeBinaryStl({ positions, indices });
}

function modelsZip(): Promise<Buffer> {
  const landmarks = new TextEncoder().encode(JSON.stringify({ landmarks: [{ name: 'annulus', position: [1, 2, 3] }] }));
  return zipOf(
    sides.flatMap(({ ed, es }, k): [string, Uint8Array][] => {
      const id = `P${String(k + 1).padStart(2, '0')}`;
      return [
        [`${id}/lv-blood-pool_end-diastole.stl`, cubeStl(ed)],
        [`${id}/lv-blood-pool_end-systole.stl`, cubeStl(es)],
        [`${id}/landmarks.json`, landmarks],
      ];
    }),
  );
}

test('a population analysis of your own imaging patients, labelled as such', async ({ page }) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const datasetName = `Own CTs ${stamp}`;
  const email = await signUp(page, '/help', 'Ana Lysis');
  const deviceId = await createWorkspace(page, `Imaging A ${stamp}`);
  const projectId = await projectWithImagingDataset(page, {
    deviceId,
    projectName: `Own LV ${stamp % 1e6}`,
    name: datasetName,
    email,
    tool: 'imaging-analysis journey',
    models: await modelsZip(),
  });

  // The project has no virtual cohort: the form offers the imaging cohort, labelled as the user's own data.
  await page.goto(`/population-analysis/overview?project=${projectId}`);
  const form = page.getByRole('form', { name: 'New analysis' });
  await expect(form.getByText(`${datasetName} (${patients} patients)`)).toBeVisible();
  await expect(form.getByText('Your imaging data')).toBeVisible();
  await expect(form.getByText(/These are your own imaging data/)).toBeVisible();
  await form.getByRole('button', { name: 'Start analysis' }).click();
  await expect(page).toHaveURL(/analysis=[\w-]+/);
  await expect(page.getByText(`: ${patients} of ${patients} patients included`)).toBeVisible();
  await expect(page.getByText('Your imaging data').first()).toBeVisible();
  await expect(page.getByText('Synthetic')).toHaveCount(0);

  // The worker's numbers on the measured volumes: the stroke volume's mean is the cubes' (mL, as rounded shown).
  const expected = sides.reduce((sum, { ed, es }) => sum + (ed ** 3 - es ** 3) / 1000, 0) / patients;
  const summary = page.getByRole('table', { name: /^Summary/ });
  const mean = summary
    .getByRole('row', { name: /Stroke volume/ })
    .getByRole('cell')
    .nth(3);
  await expect(mean).toHaveText(/^\d+\.\d+$/, { timeout: 60_000 });
  const shown = await mean.innerText();
  const rounding = 0.5 * 10 ** -shown.split('.')[1]!.length;
  expect(Math.abs(Number(shown) - expected)).toBeLessThanOrEqual(rounding + 1e-9);

  // Compared with a reference population of real patients: here a CSV of the cohort's own measured values (every
  // analysed parameter, named by key), so the two cannot be told apart (KS D 0 for each).
  const cohorts = (await (
    await page.request.get(`/api/devices/${deviceId}/projects/${projectId}/imaging-cohorts`)
  ).json()) as { items: { datasetId: string; name: string }[] };
  const datasetId = cohorts.items.find((c) => c.name === datasetName)!.datasetId;
  const table = (await (
    await page.request.get(`/api/devices/${deviceId}/projects/${projectId}/imaging-cohorts/${datasetId}/parameters`)
  ).json()) as CohortParameterTable;
  const csv = [
    table.parameters.map((p) => p.key).join(','),
    ...table.patients.map((_, i) => table.values.map((column) => column[i]).join(',')),
  ].join('\n');
  await expect(page.getByText(/compared on the parameters measured on their delivered surfaces/)).toBeVisible();
  await page.getByLabel('Source of the reference').fill('The cohort itself');
  await page.locator('input[type="file"][accept=".csv,text/csv"]').setInputFiles({
    name: 'reference.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByRole('button', { name: 'Compare with the reference' }).click();
  const compared = page.getByRole('table', { name: /^Cohort against the reference/ });
  const strokeVolume = compared.getByRole('row', { name: /Stroke volume/ });
  await expect(strokeVolume).toBeVisible({ timeout: 60_000 });
  await expect(strokeVolume.getByRole('cell').nth(7)).toHaveText('0.000');
  await expect(
    page.getByText(
      `${datasetName} (your own imaging data, ${patients} patients) against ${patients} reference patients`,
    ),
  ).toBeVisible();

  // The patients drawer: their own data, with no sex or age invented.
  await page.getByRole('button', { name: 'Patients', exact: true }).click();
  const drawer = page.getByRole('region', { name: 'Patients' });
  await expect(drawer.getByText('Your imaging data')).toBeVisible();
  await expect(drawer.getByText('Sex and age not known (de-identified)')).toHaveCount(patients);
});
