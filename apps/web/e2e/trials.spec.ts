import { expect, test } from './csp';
import { binaryCube, readyVersion } from './stl-helpers';
import { ringVersion, startTrialWorld } from './trial-helpers';
import { api } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). A member starts a fluid trial on a 5-patient cohort at
// the test resolution (the operator's switch of this journey's own workspace), the device snapped to the aortic
// annulus of every patient; the trial page's progress fills, the first finished patient's outcomes appear, and the
// rest is cancelled (one patient's run keeps the journey short: runs share the CPU pool). The member adds an outcome
// of their own (the largest blood speed over the particles and the run), which reads the same as the peak velocity,
// and after the run changes it to the mean over the run (read again from the saved outputs).

test('a fluid trial over a cohort: progress fills, outcomes appear, the rest is cancelled', async ({ page }) => {
  test.setTimeout(360_000);
  const { deviceId, cohortId, cohortName, projectId } = await startTrialWorld(page, {
    person: 'Tessa Trial',
    label: 'Trial',
    size: 5,
  });
  const versionName = `Cube ${Date.now() % 1e5}`;
  await readyVersion(page, deviceId, projectId, versionName, binaryCube());

  // The project's Rooms tab lists trials; a new one is set up in a dialog.
  await page.goto(`/projects/view/rooms?project=${projectId}&device=${deviceId}`);
  await expect(page.getByText('No trial yet.')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'New trial' }).click();
  const dialog = page.getByRole('dialog', { name: 'New trial' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Cube in every root');
  await expect(dialog.getByRole('combobox', { name: 'Cohort' })).toContainText(cohortName);
  await expect(dialog.getByRole('combobox', { name: 'Device version' })).toContainText(versionName);
  await dialog.getByRole('combobox', { name: 'Resolution' }).click();
  await page.getByRole('option', { name: 'Test (seconds)' }).click();
  await dialog.getByRole('spinbutton', { name: 'Depth offset (mm)' }).fill('2');
  await dialog.getByRole('button', { name: 'Add an outcome' }).click();
  await dialog.getByRole('textbox', { name: 'Outcome 1 name' }).fill('Fastest blood, mine');
  await expect(dialog.getByRole('combobox', { name: 'Outcome 1 from' })).toContainText('blood speed (m/s)');
  await expect(dialog.getByRole('combobox', { name: 'Outcome 1 over the particles' })).toContainText('Largest');
  await expect(dialog.getByRole('combobox', { name: 'Outcome 1 over the run' })).toContainText('Largest over the run');
  await dialog.getByRole('button', { name: 'Start trial' }).click();

  // The trial page: progress fills as patients finish, each finished one with its outcomes.
  await expect(page).toHaveURL(/\/projects\/trial\?project=.+&trial=.+/);
  await expect(page.getByRole('heading', { name: 'Cube in every root' })).toBeVisible();
  await expect(page.getByText(/\d of 5 patients done/)).toBeVisible();
  const table = page.getByRole('table', { name: 'Patients and outcomes' });
  await expect(table.getByRole('columnheader', { name: 'Pressure drop (mmHg)' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Peak velocity (m/s)' })).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(5);
  const done = table.locator('tbody tr').filter({ hasText: 'Done' }).first();
  await expect(done).toBeVisible({ timeout: 240_000 });
  await expect(page.getByText(/[1-5] of 5 patients done/)).toBeVisible();
  // Peak velocity (the fourth column) and the maximum wall shear stress (the sixth) are numbers.
  await expect(done.locator('td').nth(3)).toHaveText(/^\d/);
  await expect(done.locator('td').nth(5)).toHaveText(/^\d/);
  // The member's own outcome, after the kind's: the same number as the peak velocity.
  await expect(table.getByRole('columnheader', { name: 'Fastest blood, mine (m/s)' })).toBeVisible();
  await expect(done.locator('td').nth(6)).toHaveText((await done.locator('td').nth(3).textContent())!);
  await expect(done.getByRole('link', { name: 'Results' })).toBeVisible();

  // The rest is cancelled (asked first); the cancelled patients can be retried.
  await page.getByRole('button', { name: 'Cancel trial' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel the trial?' });
  await confirm.getByRole('button', { name: 'Cancel trial' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('trial-status')).toHaveText('Cancelled');
  await expect(page.getByText(/of 5 patients done · \d cancelled$/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Retry failed and cancelled patients' })).toBeVisible();

  // After the run the member changes their outcome to the mean over the run (its version 2): the finished patient is
  // read again from its saved outputs, nothing runs again, and version 1 stays in the trial's record.
  const own = page.getByRole('region', { name: 'Outcomes of your own' });
  await own.getByRole('button', { name: 'Change outcomes' }).click();
  await own.getByRole('combobox', { name: 'Outcome 1 over the run' }).click();
  await page.getByRole('option', { name: 'Mean over the run' }).click();
  await own.getByRole('button', { name: 'Save outcomes' }).click();
  await expect(own.getByText(/^Fastest blood, mine \(m\/s\), version 1: /)).toBeVisible();
  await expect(own.getByText('Fastest blood, mine (version 2).')).toBeVisible();
  await expect(own.getByRole('button', { name: 'Change outcomes' })).toBeEnabled({ timeout: 60_000 });
  await expect(done.locator('td').nth(6)).toHaveText(/^\d/);
  const mean = Number(await done.locator('td').nth(6).textContent());
  expect(mean).toBeLessThanOrEqual(Number(await done.locator('td').nth(3).textContent()));

  // The outcomes are parameters of the cohort in the population analysis, next to the anatomical ones; the
  // cancelled patients have none and are left out of calculations that use them.
  const trialId = new URL(page.url()).searchParams.get('trial')!;
  const analysis = await api(page, 'POST', `/api/devices/${deviceId}/projects/${projectId}/analyses`, {
    cohortId,
    name: 'With trial outcomes',
    parameters: ['aorticAnnulusDiameter_mm', `trial.${trialId}.peak_velocity`],
  });
  await page.goto(`/population-analysis/overview?project=${projectId}&analysis=${analysis.id as string}`);
  await expect(page.getByText('Cube in every root: Peak velocity (m/s)')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/[1-4] without a value of a trial outcome in use are left out/)).toBeVisible();
  await page.goBack();

  // Back on the Rooms tab the trial is listed as cancelled.
  await page.getByRole('link', { name: 'Rooms and trials of the project' }).click();
  const trials = page.getByRole('table', { name: 'Trials of the project' });
  await expect(trials.getByRole('row', { name: /Cube in every root/ })).toContainText('Cancelled');
});

// The population analysis's extreme cases open a patient's simulation in the trial (issue 17 item 3). The analysis
// needs 20 patients with a value, so every run of a 20-patient cohort must finish: the solid kind at the test
// resolution (300 steps of a thick ring's ~400 particles in the anatomy's shell, the cheapest kind), set up through the
// API (the dialog is the test above's) and run by the real job runner (docs/decisions/trial-journey-runs.md).
test('an extreme case of the population analysis opens the patient’s simulation in the trial', async ({ page }) => {
  test.setTimeout(900_000);
  const world = await startTrialWorld(page, { person: 'Olga Outlier', label: 'Extremes', size: 20 });
  const { deviceId, cohortId, projectId, trialsPath } = world;
  const versionId = await ringVersion(page, world, 'Ring v1', { majorRadius: 6, minorRadius: 2.5 });
  const trial = await api(page, 'POST', trialsPath, {
    name: 'Ring in twenty roots',
    cohortId,
    versionId,
    kind: 'solid',
    resolution: 'test',
    placement: { landmark: 'aortic_annulus', depth_mm: 2 },
  });
  const trialId = trial.id as string;
  const trialNow = async () =>
    (await (await page.request.get(`${trialsPath}/${trialId}`)).json()) as {
      status: string;
      counts: { done: number; failed: number };
    };
  // Every patient's run in turn on the server's CPU pool (minutes under load); a failed patient ends the wait at once.
  await expect.poll(async () => (await trialNow()).status, { timeout: 600_000, intervals: [2000] }).not.toBe('running');
  expect((await trialNow()).counts).toMatchObject({ done: 20, failed: 0 });

  // The analysis of the cohort with the trial's peak von Mises stress next to the annulus diameter.
  const analysis = await api(page, 'POST', `/api/devices/${deviceId}/projects/${projectId}/analyses`, {
    cohortId,
    name: 'Stress against anatomy',
    parameters: ['aorticAnnulusDiameter_mm', `trial.${trialId}.peak_von_mises_stress`],
  });
  await page.goto(`/population-analysis/overview?project=${projectId}&analysis=${analysis.id as string}`);
  // The correlation heatmap is drawn with the outcome among its parameters (the scatter plot's axes name both).
  const correlations = page.getByRole('region', { name: 'Correlations' });
  await expect(correlations.getByRole('button', { name: 'Export Correlation heatmap as SVG' })).toBeEnabled({
    timeout: 60_000,
  });
  await expect(correlations).toContainText('Ring in twenty roots: Peak von Mises stress (MPa)');
  const extremes = page.getByRole('table', { name: 'Extreme cases' });
  const first = extremes.locator('tbody tr').first();
  await expect(first.getByRole('link', { name: 'Open simulation (Ring in twenty roots)' })).toBeVisible({
    timeout: 60_000,
  });
  const patientId = (await first.locator('td').first().textContent())!.trim();
  expect(patientId).not.toBe('');
  await first.getByRole('link', { name: 'Open simulation (Ring in twenty roots)' }).click();

  // The results page of that patient's run in the trial's room.
  await expect(page).toHaveURL(/\/projects\/room\/analyses\?/);
  await expect(page.getByText(`Solid simulation in Ring in twenty roots – ${patientId}`, { exact: false })).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
});
