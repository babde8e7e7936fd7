import type { Page } from '@playwright/test';
import { expect, test } from './csp';
import { ringVersion, startTrialWorld } from './trial-helpers';
import { api } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Device CI (issue 17): a solid trial of a ring device at
// the test resolution and its re-run on a second version, each stopped after its first finished patients (runs share
// the CPU pool); on the re-run's page the member sets an acceptance criterion that one patient met on the first version
// and misses on the second, sees both versions' distributions and that patient in the pass → fail list, asks for the
// report (PDF), and deletes the trial after confirming; an analysis that used the deleted trial's outcome is saved
// without it when opened, and says which parameter went and why.

interface Patient {
  patientId: string;
  status: string;
  outcomes: Record<string, number | null> | null;
}
interface Trial {
  id: string;
  status: string;
  patients: Patient[];
  outcomes: { key: string; label: string; unit: string }[];
}

async function trialOf(page: Page, url: string): Promise<Trial> {
  return (await (await page.request.get(url)).json()) as Trial;
}

/** Waits until a patient of the trial is done (and `also` holds for it), then cancels the rest; answers the trial. */
async function firstDone(page: Page, url: string, also: (p: Patient) => boolean = () => true): Promise<Trial> {
  await expect
    .poll(async () => (await trialOf(page, url)).patients.some((p) => p.status === 'done' && also(p)), {
      timeout: 240_000,
      intervals: [1000],
    })
    .toBe(true);
  if ((await trialOf(page, url)).status === 'running') await api(page, 'POST', `${url}/cancel`, {});
  return trialOf(page, url);
}

test('device CI: distributions per version, the pass → fail list, the report, and delete', async ({ page }) => {
  test.setTimeout(420_000);
  const world = await startTrialWorld(page, { person: 'Cora Compare', label: 'CI', size: 5 });
  const { deviceId, cohortId, projectId, trialsPath: trials } = world;
  const v1 = await ringVersion(page, world, 'Ring v1', { majorRadius: 8, minorRadius: 1.5 });
  const v2 = await ringVersion(page, world, 'Ring v2', { majorRadius: 9, minorRadius: 1.2 });
  const first = await api(page, 'POST', trials, {
    name: 'Ring in every root',
    cohortId,
    versionId: v1,
    kind: 'solid',
    resolution: 'test',
    placement: { landmark: 'aortic_annulus', depth_mm: 2 },
  });
  const before = await firstDone(page, `${trials}/${first.id as string}`);
  const doneBefore = new Set(before.patients.filter((p) => p.status === 'done').map((p) => p.patientId));
  const second = await api(page, 'POST', `${trials}/${first.id as string}/rerun`, {
    versionId: v2,
    name: 'Ring v2 check',
  });
  const after = await firstDone(page, `${trials}/${second.id as string}`, (p) => doneBefore.has(p.patientId));

  // A patient with a value on both versions, and an outcome whose value differs: the criterion lies between them.
  const pairs = after.outcomes.flatMap((o) =>
    after.patients.flatMap((p) => {
      const a = before.patients.find((b) => b.patientId === p.patientId)?.outcomes?.[o.key];
      const b = p.outcomes?.[o.key];
      return typeof a === 'number' && typeof b === 'number' && a !== b
        ? [{ outcome: o, patientId: p.patientId, a, b }]
        : [];
    }),
  );
  const pick = pairs[0]!;
  expect(pick).toBeDefined();
  const bound = Number(((pick.a + pick.b) / 2).toPrecision(6));
  // The first version passes: at most the midpoint when the value rose, at least it when it fell.
  const field = pick.b > pick.a ? 'at most' : 'at least';

  await page.goto(`/projects/trial?project=${projectId}&trial=${second.id as string}&device=${deviceId}`);
  await expect(page.getByRole('heading', { name: 'Ring v2 check' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('spinbutton', { name: `${pick.outcome.label}: ${field}` }).fill(String(bound));
  await page.getByRole('button', { name: 'Save criteria' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByTestId(`pass-${pick.outcome.key}`)).toContainText(/of \d+ \(\d+ %, 95 % interval/);

  // The comparison: the chosen outcome's distributions on both versions, and the patient that now fails.
  await page.getByRole('combobox', { name: 'Outcome' }).click();
  await page.getByRole('option', { name: `${pick.outcome.label} (${pick.outcome.unit})` }).click();
  const chartTitle = `Distribution of ${pick.outcome.label} (${pick.outcome.unit}) per device version`;
  await expect(page.getByRole('heading', { name: chartTitle })).toBeVisible();
  await expect(page.getByRole('button', { name: `Export ${chartTitle} as SVG` })).toBeEnabled({ timeout: 30_000 });
  await expect(page.getByTestId('pass-fail-summary')).toContainText(
    /passed on the earlier version and fails? on this one/,
  );
  const changed = page.getByRole('table', { name: 'Patients whose verdict changed' });
  await expect(changed.getByRole('row', { name: new RegExp(pick.patientId) })).toContainText('pass → fail');

  // The report: made by a job, then a download.
  await page.getByRole('button', { name: 'Create report (PDF)' }).click();
  const reportLink = page.getByRole('list', { name: 'Reports' }).getByRole('link', { name: /^Report of / });
  await expect(reportLink).toBeVisible({ timeout: 60_000 });
  const download = page.waitForEvent('download');
  await reportLink.click();
  expect((await download).suggestedFilename()).toMatch(/^Ring-v2-check-report-\d{4}-\d{2}-\d{2}\.pdf$/);

  // An analysis of the cohort that uses the re-run's outcome (its trial is deleted next).
  const gone = `trial.${second.id as string}.peak_von_mises_stress`;
  const analysis = await api(page, 'POST', `/api/devices/${deviceId}/projects/${projectId}/analyses`, {
    cohortId,
    name: 'Uses the v2 check',
    parameters: ['aorticAnnulusDiameter_mm', gone],
  });

  // Delete, asked first: back on the Rooms tab the trial is gone, the first one stays.
  await page.getByRole('button', { name: 'Delete trial' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the trial Ring v2 check?' });
  await expect(confirm).toContainText('The rooms and simulations it made stay in the Rooms tab.');
  await confirm.getByRole('button', { name: 'Delete trial' }).click();
  await expect(page).toHaveURL(/\/projects\/view\/rooms\?/);
  const list = page.getByRole('table', { name: 'Trials of the project' });
  await expect(list.getByRole('row', { name: /Ring in every root/ })).toBeVisible({ timeout: 30_000 });
  await expect(list.getByRole('row', { name: /Ring v2 check/ })).toHaveCount(0);

  // The analysis opens, is saved without the deleted trial's outcome, and says so.
  await page.goto(`/population-analysis/overview?project=${projectId}&analysis=${analysis.id as string}`);
  const note = page.getByRole('status').filter({ hasText: 'A parameter was taken out of this analysis' });
  await expect(note).toContainText(
    `Peak von Mises stress (${gone}): Its trial was deleted, so its outcomes are no longer available.`,
    { timeout: 30_000 },
  );
  const saved = await page.request.get(
    `/api/devices/${deviceId}/projects/${projectId}/analyses/${analysis.id as string}`,
  );
  expect(((await saved.json()) as { parameters: string[] }).parameters).toEqual(['aorticAnnulusDiameter_mm']);
  await note.getByRole('button', { name: 'Close' }).click();
  await expect(note).toHaveCount(0);
});
