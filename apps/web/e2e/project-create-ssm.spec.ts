import { expect as baseExpect, test } from '@playwright/test';
import { openCriteria, orderReadyCohort } from './cohort-helpers';
import { api, createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL): an SSM configured in the project wizard before the project exists
// (issue 18; spec §2 new-ssm-* sub-routes). A 10-patient cohort (every patient imaged at end-diastole) and a
// question are made through the APIs; then in the browser: the three steps from the draft's cohort, too few
// patients (one left out) showing the reach-out dialog, the SSM added to the draft, the same configuration
// refused with the spec's message, a reload keeping the SSM, and the project created with it: the SSM in progress,
// then ready.

// Pages that load several calls on a shared machine get more than the default 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

test('an SSM configured in the project wizard is built when the project is created', async ({ page }) => {
  test.setTimeout(300_000);
  const stamp = Date.now();
  const cohortName = `Roots ${stamp}`;
  const ssmName = 'Aortic root, end-diastole, 10 patients';
  const question = 'Does the frame fit the aortic roots of this cohort?';

  await signUp(page, '/help', 'Sasha Steps');
  await expect(page).toHaveURL(/\/help$/);
  const deviceId = await createWorkspace(page, `Valve M ${stamp}`);
  await orderReadyCohort(page, deviceId, {
    name: cohortName,
    size: 10,
    criteria: { ...openCriteria, phases_of_heart_cycle: { 'end-diastole': 'selected' } },
  });
  await api(page, 'POST', `/api/devices/${deviceId}/questions-of-interest`, { question });

  await page.goto('/projects/create');
  await page.getByRole('textbox', { name: 'Project title' }).fill(`Shapes first ${stamp % 1e6}`);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/patient-cohort-list$/);
  // New SSM needs a cohort of the project first.
  await expect(page.getByRole('button', { name: 'New SSM' })).toBeDisabled();
  await page.getByRole('checkbox', { name: cohortName }).check();
  await page.getByRole('button', { name: 'New SSM' }).click();

  // Patients: the draft's cohorts; one patient left out.
  await expect(page).toHaveURL(/\/projects\/create\/new-ssm-select-patient-cohorts$/);
  await expect(page.getByRole('heading', { name: 'New statistical shape model' })).toBeVisible();
  await page.getByRole('checkbox', { name: new RegExp(`^${cohortName} \\(`) }).check();
  await expect(page.getByTestId('ssm-kept-patients')).toHaveText('10 patients chosen');
  const firstPatient = page
    .getByRole('group', { name: `Patients of ${cohortName}` })
    .getByRole('checkbox')
    .first();
  await firstPatient.uncheck();
  await expect(page.getByTestId('ssm-kept-patients')).toHaveText('9 patients chosen');
  await page.getByRole('button', { name: 'Next' }).click();

  // Organs and phase, then Name: too few patients → the dialog telling the user to reach out (spec §5, §8).
  await expect(page).toHaveURL(/new-ssm-select-organ-phase$/);
  await expect(page.getByRole('checkbox', { name: 'Aortic root' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'End-diastole' })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/new-ssm-name-configuration$/);
  await page.getByRole('button', { name: 'Add the SSM' }).click();
  const tooFew = page.getByRole('dialog', { name: 'Too few patients for an SSM' });
  await expect(tooFew).toContainText('needs at least 10 patients; this configuration has 9. Please reach out');
  await expect(tooFew.getByRole('button', { name: 'Contact support' })).toBeVisible();
  await tooFew.getByRole('button', { name: 'Change patients' }).click();

  // Back to Patients (the SSM being typed is kept in the draft), the patient taken back, the SSM added.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/new-ssm-select-patient-cohorts$/);
  await expect(page.getByTestId('ssm-kept-patients')).toHaveText('9 patients chosen');
  await firstPatient.check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Add the SSM' }).click();
  await expect(page).toHaveURL(/new-ssm-complete$/);
  await expect(page.getByRole('status')).toContainText(`${ssmName} is added to the project`);

  // The same configuration again (another name): refused with the spec's words.
  await page.getByRole('button', { name: 'Add another SSM' }).click();
  await page.getByRole('checkbox', { name: new RegExp(`^${cohortName} \\(`) }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'SSM name (optional)' }).fill('The same roots');
  await page.getByRole('button', { name: 'Add the SSM' }).click();
  await expect(
    page.getByText('This SSM already exists in your project, change some criteria to proceed.'),
  ).toBeVisible();

  // Back to the cohorts: the SSM is in the draft, and a reload keeps it.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/patient-cohort-list$/);
  const ssms = page.getByRole('list', { name: 'SSMs of the new project' });
  await expect(ssms).toContainText(ssmName);
  await page.reload();
  await expect(ssms).toContainText(ssmName);

  // The rest of the wizard, then the project with its SSM in progress, then ready (spec §4).
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: question }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/device-version$/);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/team$/);
  await expect(page.getByText(/1 SSM\(s\) to build/)).toBeVisible();
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/projects\/ssm\?project=/);
  const item = page.getByRole('link', { name: ssmName });
  await expect(item).toBeVisible();
  await expect(page.getByText(/^In progress|^Ready$/)).toBeVisible();
  await expect(page.getByText('Ready', { exact: true })).toBeVisible({ timeout: 180_000 });
});
