import { expect as baseExpect, test, type Page } from '@playwright/test';
import { orderReadyCohort } from './cohort-helpers';
import { binaryCube } from './stl-helpers';
import { api, createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL). Issue 14, items 13, 14 and 16:
// - a new device version that fails inside the wizard is shown as such (not counted), can be deleted there, and
//   the project is created without a refusal at the end (13);
// - "From a previous project" keeps the development stage chosen on the title step (14);
// - after creation the project's title, question, cohorts and device versions are edited from its page, every list
//   showing them follows, and a version a project used is deleted from the versions page (16, 13).

// Several helpers share two cores: pages that load several calls get more than the default 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

async function uploadVersion(page: Page, name: string, file: Buffer, submitLabel: string): Promise<void> {
  await page.getByLabel('Device version name').fill(name);
  await page
    .getByLabel('3D model files (.stl)')
    .setInputFiles([{ name: 'model.stl', mimeType: 'model/stl', buffer: file }]);
  await expect(page.getByRole('list', { name: 'Files of the device version' }).getByText('Uploaded')).toHaveCount(1, {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: submitLabel }).click();
}

test('a failed version does not block the wizard, the stage survives a previous project, and the project is edited', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const stamp = Date.now();
  await signUp(page, '/help', 'Edna Editor');
  await expect(page).toHaveURL(/\/help$/);
  const deviceId = await createWorkspace(page, `Valve E ${stamp}`, [
    'concept_and_design_feasibility',
    'clinical_trial',
  ]);
  const firstCohort = `Adults ${stamp}`;
  const secondCohort = `Seniors ${stamp}`;
  const firstCohortId = await orderReadyCohort(page, deviceId, { name: firstCohort, size: 5 });
  await orderReadyCohort(page, deviceId, { name: secondCohort, size: 5 });
  const firstQuestion = 'Does the frame seal the annulus?';
  const secondQuestion = 'Does the frame stay in place at peak pressure?';
  const question = await api(page, 'POST', `/api/devices/${deviceId}/questions-of-interest`, {
    question: firstQuestion,
  });
  await api(page, 'POST', `/api/devices/${deviceId}/questions-of-interest`, { question: secondQuestion });
  const previousTitle = `Feasibility ${stamp}`;
  await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: previousTitle,
    developmentStage: 'concept_and_design_feasibility',
    questionId: question.id,
    cohortIds: [firstCohortId],
  });

  // A ready version, made on the versions page.
  const readyName = `Frame ${stamp}`;
  await page.goto('/device-versions/new');
  await uploadVersion(page, readyName, binaryCube(), 'Create device version');
  await expect(page.getByRole('article', { name: readyName }).getByText('Ready', { exact: true })).toBeVisible({
    timeout: 120_000,
  });

  // Title step: the clinical stage, then a previous project of the concept stage (item 14).
  const title = `Clinical ${stamp}`;
  await page.goto('/projects/create');
  await page.getByRole('textbox', { name: 'Project title' }).fill(title);
  await page.getByRole('radio', { name: 'Clinical trial' }).check();
  await page.getByRole('radio', { name: /From a previous project/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/previous-project-list$/);
  await page.getByRole('radio', { name: previousTitle }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('radio', { name: 'Clinical trial' })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('radio', { name: previousTitle })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('checkbox', { name: firstCohort })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('radio', { name: firstQuestion })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();

  // Device-version step: a new version with a corrupted file fails; it is shown as such, not counted, deleted (13).
  await expect(page).toHaveURL(/\/projects\/create\/device-version$/);
  await page.getByRole('button', { name: 'New device version' }).click();
  const brokenName = `Broken ${stamp}`;
  await uploadVersion(page, brokenName, binaryCube().subarray(0, 300), 'Create device version');
  await expect(page).toHaveURL(/\/projects\/create\/device-version$/);
  const unusable = page.getByRole('alert', { name: 'Chosen versions that cannot join the project' });
  await expect(unusable.getByText(brokenName)).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText(/^0 chosen\./)).toBeVisible();
  await unusable.getByRole('button', { name: `Delete device version ${brokenName}` }).click();
  const confirmDelete = page.getByRole('dialog', { name: `Delete device version ${brokenName}?` });
  await confirmDelete.getByRole('button', { name: 'Delete' }).click();
  await expect(confirmDelete).toBeHidden();
  await expect(unusable).toBeHidden();
  await page
    .getByRole('list', { name: 'Device versions to choose from' })
    .getByRole('listitem')
    .filter({ hasText: readyName })
    .getByRole('checkbox')
    .check();
  await expect(page.getByText(/^1 chosen\./)).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/team$/);
  await expect(page.getByText(/1 device version\(s\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/projects\/view\/stats\?project=[\w-]+$/);
  const projectId = new URL(page.url()).searchParams.get('project')!;
  const made = (await (await page.request.get(`/api/devices/${deviceId}/projects/${projectId}`)).json()) as {
    developmentStage: string;
    deviceVersions: { name: string }[];
  };
  expect(made.developmentStage).toBe('clinical_trial');
  expect(made.deviceVersions.map((version) => version.name)).toEqual([readyName]);

  // Editing the project from its page (item 16): title with the wizard's rule, another question, cohorts, versions.
  await page.getByRole('button', { name: 'Edit project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit project' });
  const titleField = dialog.getByRole('textbox', { name: 'Project title' });
  await titleField.fill('x'.repeat(51));
  await expect(dialog.getByText('Project title is too long. Maximum 50 characters.')).toBeVisible();
  await titleField.fill(previousTitle.toUpperCase());
  await dialog.getByRole('combobox', { name: 'Question of interest' }).click();
  await page.getByRole('option', { name: secondQuestion }).click();
  await dialog.getByRole('button', { name: 'Save title and question' }).click();
  await expect(
    dialog.getByText(
      'A project with this title already exists in this device workspace. Please choose a different title.',
    ),
  ).toBeVisible();
  const newTitle = `Clinical sizing ${stamp}`;
  await titleField.fill(newTitle);
  await dialog.getByRole('button', { name: 'Save title and question' }).click();
  // Saved: the refusal is gone and nothing is left to save (the page behind is hidden from the dialog's user).
  await expect(dialog.getByText(/A project with this title already exists/)).toBeHidden();
  await expect(dialog.getByRole('button', { name: 'Save title and question' })).toBeDisabled();

  const cohorts = dialog.getByRole('region', { name: 'Patient cohorts' });
  await cohorts.getByRole('combobox', { name: 'Add a patient cohort' }).click();
  await page.getByRole('option', { name: secondCohort }).click();
  await cohorts.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(
    cohorts.getByRole('list', { name: 'Patient cohorts of the project' }).getByText(secondCohort),
  ).toBeVisible();
  await cohorts.getByRole('button', { name: `Remove ${firstCohort}` }).click();
  await page
    .getByRole('dialog', { name: `Remove ${firstCohort} from the project?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(
    cohorts.getByRole('list', { name: 'Patient cohorts of the project' }).getByText(firstCohort),
  ).toBeHidden();

  const versions = dialog.getByRole('region', { name: 'Device versions' });
  await versions.getByRole('button', { name: `Remove ${readyName}` }).click();
  await page
    .getByRole('dialog', { name: `Remove ${readyName} from the project?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(versions.getByText('No device versions yet.')).toBeVisible();
  await versions.getByRole('combobox', { name: 'Add a device version' }).click();
  await page.getByRole('option', { name: readyName }).click();
  await versions.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(
    versions.getByRole('list', { name: 'Device versions of the project' }).getByText(readyName),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();
  await expect(page.getByText(`Question of interest: ${secondQuestion}`)).toBeVisible();

  // The Stats tab behind the dialog follows every change.
  const patients = page.getByRole('region', { name: 'Patients' });
  await expect(patients.getByText(secondCohort)).toBeVisible();
  await expect(patients.getByText(firstCohort)).toBeHidden();
  await expect(page.getByRole('region', { name: 'Device versions' }).getByText(readyName)).toBeVisible();

  // The versions page says where the version is used; deleting it (no room places it) asks first, then the
  // project no longer lists it.
  await page.goto('/device-versions');
  const card = page.getByRole('article', { name: readyName });
  await expect(card.getByRole('link', { name: newTitle })).toBeVisible();
  await card.getByRole('button', { name: `Delete device version ${readyName}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete device version ${readyName}?` });
  await expect(confirm.getByText(`It is taken off the projects ${newTitle}.`, { exact: false })).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(card).toBeHidden();
  await page.goBack();
  await expect(page.getByRole('region', { name: 'Device versions' }).getByText(readyName)).toBeHidden();
});
