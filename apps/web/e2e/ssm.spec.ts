import type { Page } from '@playwright/test';
import { openCriteria } from './cohort-helpers';
import { allowTestResolution } from './simulation-helpers';
import { binaryCube, readyVersion } from './stl-helpers';
import { api, createWorkspace, signUp } from './workspace-helpers';
import { expect as baseExpect, test } from './csp';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). A project with a 20-patient and a 5-patient cohort
// (every patient with end-diastolic images), made through the APIs; then in the browser (issue 18's journey): an
// SSM of the aortic root at end-diastole created in three steps (Patients, Organs, Name), in progress then ready,
// its page (mode sliders, quality, model card), a room on it whose shape a simulation set-up is built on and whose
// own sliders move it; a trial on the model's named instances (issue 17) with its population view and PDF report;
// a measurement ordered from its page on its mean and named instance, results by shape with CSV (issue 23);
// the same configuration refused with the spec's message; too few patients showing the reach-out dialog, which leads
// to support.
//
// Waits are sized for a slow, loaded machine (as the other journeys that order cohorts and build models): 240 s for
// a cohort order or an SSM build, 180 s for the simulation set-up of the room's shape, 60 s for a model or a mesh to
// load, 30 s for any other step. The test's own limit covers their sum.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Orders a cohort whose patients all have end-diastolic images and waits until it is ready; answers its id. */
async function readyCohort(page: Page, deviceId: string, name: string, size: 5 | 20): Promise<string> {
  const cohort = await api(page, 'POST', `/api/devices/${deviceId}/cohorts`, {
    name,
    size,
    criteria: { ...openCriteria, phases_of_heart_cycle: { 'end-diastole': 'selected' } },
  });
  const id = cohort.id as string;
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/devices/${deviceId}/cohorts/${id}`)).json()) as { status: string })
          .status,
      { timeout: 240_000, intervals: [1000] },
    )
    .toBe('ready');
  return id;
}

/** Goes through the three steps with one cohort ticked; stops on the Name step before creating. */
async function throughSteps(page: Page, newSsmUrl: string, cohortName: string) {
  await page.goto(newSsmUrl);
  await expect(page.getByText('Patients', { exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: new RegExp(`^${cohortName} \\(`) }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/new-ssm-select-organ-phase/);
  await expect(page.getByRole('checkbox', { name: 'Aortic root' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'End-diastole' })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/new-ssm-name-configuration/);
}

test('an SSM of the aortic root: three steps, in progress then ready, its page, a room on it, duplicate and too few refused', async ({
  page,
}) => {
  // 240 + 240 + 2 × 180 + 5 × 60 s of the longest waits, and the rest.
  test.setTimeout(1_200_000);
  await signUp(page, '/', 'Sam Shapes');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const stamp = Date.now();
  const deviceId = await createWorkspace(page, `Valve S ${stamp}`);
  const [twenty, five] = await Promise.all([
    readyCohort(page, deviceId, `Roots ${stamp}`, 20),
    readyCohort(page, deviceId, `Few ${stamp}`, 5),
  ]);
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: `Shapes ${stamp % 1e6}`,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: [twenty, five],
    versionIds: [],
    teamUserIds: [],
  });
  const projectId = project.id as string;

  // From the project: its shape models, none yet, then New SSM.
  await page.goto(`/projects/view/stats?project=${projectId}`);
  await page.getByRole('link', { name: 'Shape models' }).click();
  await expect(page.getByText('No SSM in this project yet.')).toBeVisible();
  await page.getByRole('link', { name: 'New SSM' }).click();
  // The link navigates on the client: read the address once the first step has it (not the list's, still shown).
  await expect(page).toHaveURL(/new-ssm-select-patient-cohorts/);
  const newSsmUrl = page.url();
  await throughSteps(page, newSsmUrl, `Roots ${stamp}`);
  await page.getByRole('button', { name: 'Create SSM' }).click();

  // In progress until ready (spec §4), then its page.
  await expect(page).toHaveURL(/new-ssm-complete/);
  await expect(page.getByRole('status')).toContainText('is in progress');
  await expect(page.getByRole('status')).toContainText('Aortic root, end-diastole, 20 patients is ready', {
    timeout: 300_000,
  });
  await page.getByRole('link', { name: 'Open the SSM' }).click();
  await expect(page.getByRole('heading', { name: 'Aortic root, end-diastole, 20 patients' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Model card' })).toContainText(`Roots ${stamp}`);
  await expect(page.getByRole('table', { name: 'Quality by number of modes' })).toContainText('Compactness');
  await expect(page.getByText('Quality curves', { exact: true })).toBeVisible();

  // Mode 1 to +2 SD: the shape shown follows the slider.
  const viewer = page.getByTestId('ssm-viewer');
  await expect(viewer).toHaveAttribute('data-shape', 'mean', { timeout: 60_000 });
  const mode1 = page.getByRole('slider', { name: /Mode 1/ });
  await mode1.focus();
  // Each step of 0.5 SD is drawn in the browser from the model file; the time of each draw is read.
  const draws: number[] = [];
  for (const shape of ['0.5', '1', '1.5', '2']) {
    await page.keyboard.press('ArrowRight');
    await expect(viewer).toHaveAttribute('data-shape', shape);
    draws.push(Number(await viewer.getAttribute('data-draw-ms')));
  }
  await expect(page.getByText(/Mode 1 .*: \+2 SD/)).toBeVisible();
  // Each draw's time is shown to the page; its budget (issue 18: ≤ 16 ms) is measured in bench/ssm.bench.ts, not
  // asserted here: a wall-clock bound in a journey fails on a busy machine (one draw took 19 ms at load 15).
  expect(draws.every(Number.isFinite), `draws (ms): ${draws.join(', ')}`).toBe(true);
  await expect(viewer).toHaveAttribute('data-vertices', '914');

  // Downloads are offered, this shape's STL among them.
  await expect(page.getByRole('link', { name: 'This shape (STL)' })).toHaveAttribute(
    'href',
    /exports\/shapes\/2\/stl$/,
  );
  const ssmPageUrl = page.url();

  // One click leaves a patient out: a new model of 19 patients is built.
  await page
    .getByLabel(/^Leave out SYN-\d{6} and rebuild$/)
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Aortic root, end-diastole, 19 patients' })).toBeVisible();
  await page.goto(ssmPageUrl);
  await expect(viewer).toHaveAttribute('data-shape', 'mean', { timeout: 60_000 });
  await mode1.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAttribute('data-shape', '2');

  // A room on this shape (mode 1 at +2 SD): a named instance of the model.
  await page.getByRole('button', { name: 'Create a room on this shape' }).click();
  await expect(page).toHaveURL(/\/projects\/room\?project=[\w-]+&room=[\w-]+/);
  await expect(
    page.getByText('Aortic root, end-diastole, 20 patients: Shape: mode 1 +2 SD', { exact: true }),
  ).toBeVisible();
  // The room's viewer shows that shape (its GLB, as a patient's phase would be).
  await expect(page.getByTestId('room-scene')).toHaveAttribute('data-shown-phase', '2', { timeout: 60_000 });
  // Simulations run on this shape as on a patient: the fluid set-up draws its region and estimates the run.
  await expect(page.getByRole('button', { name: 'Fluid' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('room-scene')).toHaveAttribute('data-simulated-region', 'shown', {
    timeout: 180_000,
  });
  await expect(page.getByTestId('simulation-estimate')).toContainText('particles', { timeout: 180_000 });

  // The room's own sliders move its shape along the modes (issue 18 item 6): mode 1 to +1 SD, the view changes (to
  // save), then back to +2 SD, the saved shape.
  const roomMode1 = page.getByRole('slider', { name: /Mode 1/ });
  await expect(roomMode1).toHaveValue('2');
  await roomMode1.focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('room-scene')).toHaveAttribute('data-shown-phase', '1', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('room-scene')).toHaveAttribute('data-shown-phase', '2', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();

  // A trial on the model's named instances (that room): a size range no aortic root fits, so the instance fails its
  // placement at once and nothing runs (the journey stays short); the trial page shows the instances as a population
  // (mode scores, what does not apply to shapes) and makes the report.
  await allowTestResolution(deviceId);
  await readyVersion(page, deviceId, projectId, `Cube ${stamp % 1e5}`, binaryCube());
  await page.goto(`/projects/view/rooms?project=${projectId}&device=${deviceId}`);
  await page.getByRole('button', { name: 'New trial' }).click();
  const newTrial = page.getByRole('dialog', { name: 'New trial' });
  await newTrial.getByRole('textbox', { name: 'Name' }).fill('Cube in the shapes');
  await newTrial.getByRole('combobox', { name: 'Cohort or shape model' }).click();
  await page.getByRole('option', { name: 'Aortic root, end-diastole, 20 patients (1 named instance)' }).click();
  await newTrial.getByRole('combobox', { name: 'Resolution' }).click();
  await page.getByRole('option', { name: 'Test (seconds)' }).click();
  await newTrial.getByRole('checkbox', { name: 'Only patients whose annulus fits the device’s size range' }).check();
  await newTrial.getByRole('spinbutton', { name: 'Smallest annulus (mm)' }).fill('60');
  await newTrial.getByRole('spinbutton', { name: 'Largest annulus (mm)' }).fill('70');
  await newTrial.getByRole('button', { name: 'Start trial' }).click();
  await expect(page).toHaveURL(/\/projects\/trial\?project=.+&trial=.+/);
  await expect(page.getByTestId('trial-status')).toHaveText('Completed', { timeout: 60_000 });
  await expect(page.getByRole('table', { name: 'Patients and outcomes' })).toContainText(
    'outside the device’s size range',
  );
  const population = page.getByRole('region', { name: 'Population of the instances' });
  await expect(population).toContainText('Synthetic shapes from the statistical shape model');
  await expect(population).toContainText('no outliers, no representativeness and no population intervals');
  const scores = population.getByRole('table', { name: 'Mode scores of the instances' });
  await expect(scores.getByRole('columnheader', { name: 'Mode 1 (SD)' })).toBeVisible();
  await expect(scores.locator('tbody tr td').last()).toHaveText('2');
  await page.getByRole('button', { name: 'Create report (PDF)' }).click();
  const report = page.getByRole('link', { name: /^Report of / });
  await expect(report).toBeVisible({ timeout: 60_000 });
  const pdf = await page.request.get((await report.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');

  // Measurements on the model's shapes (issue 23), from its page: an annulus area at the model's phase (defined
  // through the API) ordered on its mean and its named instance (the room saved above); progress, then a row per
  // shape and the CSV.
  await api(page, 'POST', `/api/devices/${deviceId}/measurement-definitions`, {
    name: 'Annulus area at end-diastole',
    description: '',
    phase: 'end-diastole',
    geometry: {
      type: 'section',
      organ: 'aortic_root',
      plane: { kind: 'landmark', landmark: 'aortic_annulus' },
      quantity: 'area',
    },
  });
  await page.goto(ssmPageUrl);
  await page.getByRole('link', { name: 'Order measurements on its shapes' }).click();
  await expect(page).toHaveURL(/\/measurement\/define\?.*ssm=/);
  await expect(page.getByText(/Measuring the shapes of Aortic root, end-diastole, 20 patients/)).toBeVisible();
  await page.getByRole('checkbox', { name: /^Annulus area at end-diastole/ }).check();
  await page.getByRole('link', { name: 'Continue with 1 measurement' }).click();
  await expect(
    page.getByRole('heading', {
      name: 'Aortic root, end-diastole, 20 patients: the mean shape and its named instances',
    }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Order measurements' }).click();
  const measured = page.getByRole('table', { name: 'Measurement results' });
  await expect(measured).toBeVisible({ timeout: 120_000 });
  await expect(measured.getByRole('columnheader', { name: 'Shape' })).toBeVisible();
  await expect(measured).toContainText('Mean shape');
  await expect(measured).toContainText('Aortic root, end-diastole, 20 patients: Shape: mode 1 +2 SD');
  const measuredCsv = await page.request.get(
    (await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!,
  );
  expect(measuredCsv.status()).toBe(200);
  expect(await measuredCsv.text()).toContain('Mean shape');

  // The same configuration again: refused with the spec's message.
  await throughSteps(page, newSsmUrl, `Roots ${stamp}`);
  await page.getByRole('textbox', { name: 'SSM name (optional)' }).fill('Another name');
  await page.getByRole('button', { name: 'Create SSM' }).click();
  await expect(
    page.getByText('This SSM already exists in your project, change some criteria to proceed.'),
  ).toBeVisible();

  // Too few patients: the dialog tells the user to reach out, and leads to support.
  await page.goto(newSsmUrl);
  await page.getByRole('checkbox', { name: new RegExp(`^Roots ${stamp} \\(`) }).uncheck();
  await page.getByRole('checkbox', { name: new RegExp(`^Few ${stamp} \\(`) }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Create SSM' }).click();
  const dialog = page.getByRole('dialog', { name: 'Too few patients for an SSM' });
  await expect(dialog).toContainText('Please reach out to us');
  await dialog.getByRole('button', { name: 'Contact support' }).click();
  await expect(page).toHaveURL(/drawer=ask-support/);
});
