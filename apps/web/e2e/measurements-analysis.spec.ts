import { readFileSync } from 'node:fs';
import { orderReadyCohort } from './cohort-helpers';
import { api, createWorkspace, signUp } from './workspace-helpers';
import { expect, test } from './csp';

// Issue 23 against the real server: the TAVI annulus area and perimeter ordered (through the measurement API) on a
// 50-patient cohort (about a fifth lacks end-systolic images, and an analysis needs 20); in the population analysis the measured perimeter is a parameter under "Measurements", a
// device's sizes on the measured area and perimeter flag the patients the two methods size differently, and the
// cohort is compared with a reference population — published statistics, then a CSV of patients — ending with
// the one-page report (CSV) naming the cohort's population model version.

test('measurements feed the analysis and its device fit; the cohort is compared with a reference population', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await signUp(page, '/', 'Rhea Reference');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(page, `Valve R ${Date.now()}`);
  const cohortName = `Root 50 ${Date.now() % 1e6}`;
  const cohortId = await orderReadyCohort(page, deviceId, { name: cohortName, size: 50, timeoutMs: 240_000 });
  const order = await api(page, 'POST', `/api/devices/${deviceId}/cohorts/${cohortId}/measurement-orders`, {
    definitionIds: ['scct-tavi/annulus-area@1', 'scct-tavi/annulus-perimeter@1'],
  });
  const orderId = order.id as string;
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`/api/devices/${deviceId}/measurement-orders/${orderId}`)).json()) as {
            status: string;
          }
        ).status,
      { timeout: 120_000 },
    )
    .toBe('ready');
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: `Measured ${Date.now() % 1e6}`,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: [cohortId],
    versionIds: [],
    teamUserIds: [],
  });
  const area = `measurement.${orderId}.0`;
  const perimeter = `measurement.${orderId}.1`;
  // Sizes whose area and perimeter windows meet at different places: some patients fall in 23 mm by one and
  // 26 mm by the other.
  const analysis = await api(page, 'POST', `/api/devices/${deviceId}/projects/${project.id as string}/analyses`, {
    cohortId,
    name: 'Measured annulus',
    parameters: ['aorticAnnulusDiameter_mm', 'aorticAnnulusPerimeter_mm', perimeter],
    settings: {
      deviceFits: [
        {
          label: 'Valve by area and perimeter',
          sizes: [
            {
              name: '23 mm',
              ranges: [
                { parameter: area, min: 200, max: 420 },
                { parameter: perimeter, min: 50, max: 76 },
              ],
            },
            {
              name: '26 mm',
              ranges: [
                { parameter: area, min: 420, max: 900 },
                { parameter: perimeter, min: 70, max: 120 },
              ],
            },
          ],
        },
      ],
    },
  });
  await page.goto(`/population-analysis/overview?project=${project.id as string}&analysis=${analysis.id as string}`);
  const filter = page.getByRole('region', { name: 'Parameter filter' });
  await expect(filter.getByText('Aortic annulus perimeter (measured) (mm)')).toBeVisible({ timeout: 60_000 });
  // Patients without end-systolic images have no measured value: they are left out, and the page says why.
  await expect(page.getByText(/without a value of a measurement in use are left out/)).toBeVisible();
  const fit = page.getByRole('region', { name: 'Device fit' });
  await expect(fit.getByRole('status').filter({ hasText: 'Valve by area and perimeter: sizing by' })).toContainText(
    'Aortic annulus area (measured), Aortic annulus perimeter (measured)',
  );

  // Representativeness against published statistics (no patients: no test, differences in SDs).
  const block = page.getByRole('region', { name: 'Representativeness' });
  await block.getByRole('button', { name: 'Published statistics' }).click();
  await block.getByLabel('Aortic annulus perimeter mean').fill('80');
  await block.getByLabel('Aortic annulus perimeter SD').fill('7');
  await block.getByLabel('Aortic annulus perimeter n').fill('506');
  await block.getByRole('textbox', { name: /Source of the reference/ }).fill('TAVI CT series, n = 506');
  await block.getByRole('button', { name: 'Compare with the reference' }).click();
  await expect(block.getByRole('status')).toContainText(
    /population model .+, 50 patients\) against published statistics/,
    { timeout: 30_000 },
  );
  const perParameter = block.getByRole('table', { name: /Cohort against the reference/ });
  await expect(perParameter.getByRole('row', { name: /Aortic annulus perimeter/ })).toBeVisible();

  // Then a CSV of reference patients: the test and the range covered per parameter.
  const table = (await (await page.request.get(`/api/devices/${deviceId}/cohorts/${cohortId}/parameters`)).json()) as {
    parameters: { key: string }[];
    values: number[][];
  };
  const column = (key: string) => table.values[table.parameters.findIndex((p) => p.key === key)]!;
  const csv = [
    'aorticAnnulusDiameter_mm,Aortic annulus perimeter (mm)',
    ...column('aorticAnnulusDiameter_mm').map(
      (d, i) => `${(d * 1.1).toFixed(2)},${(column('aorticAnnulusPerimeter_mm')[i]! * 1.1).toFixed(2)}`,
    ),
  ].join('\n');
  await block.getByRole('button', { name: 'Patients (CSV)' }).click();
  await block
    .locator('input[type="file"]')
    .setInputFiles({ name: 'reference.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(block.getByText('reference.csv')).toBeVisible();
  await block.getByRole('textbox', { name: /Source of the reference/ }).fill('Registry extract, de-identified');
  await block.getByRole('button', { name: 'Compare with the reference' }).click();
  await expect(block.getByRole('status')).toContainText('against 50 reference patients', { timeout: 30_000 });
  await expect(block.getByRole('status')).toContainText(/Energy distance .+ permutation p = /);
  await expect(perParameter.getByRole('row', { name: /Aortic annulus mean diameter/ })).toBeVisible();
  await expect(block.getByText('Mahalanobis χ² QQ plot')).toBeVisible();

  const download = page.waitForEvent('download');
  await block.getByRole('button', { name: 'Download report (CSV)' }).click();
  const report = readFileSync(await (await download).path(), 'utf8');
  expect(report).toContain('Population model version,');
  expect(report).toContain('Reference source,"Registry extract, de-identified"');
});
