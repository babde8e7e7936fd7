import { expect as baseExpect, test, type Page } from '@playwright/test';
import { api, createWorkspace, mailedInvitationPath, signUp, uniqueEmail } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR for the invitation mail): an admin creates a project
// end to end in the wizard — title (the 50-character rule), a cohort ordered inline, a new question of interest
// with the V&V 40 fields, a NEW device version (a binary STL made here, uploaded with tus), a teammate — then sees
// the version processing, gets the notification, and finds the version on the project. A reload on the way
// continues from the saved draft.

// Seven helpers share two cores: pages that load several calls get more than the default 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * A binary STL of a closed sphere of radius 10 mm with `2 · slices · (stacks − 1)` triangles (300,000 here): large
 * enough that processing is still running when the project is created right after the upload.
 */
function binarySphere(slices = 500, stacks = 301): Buffer {
  const ring = (i: number, j: number): [number, number, number] => {
    const theta = (Math.PI * i) / stacks;
    const phi = (2 * Math.PI * (j % slices)) / slices;
    return [10 * Math.sin(theta) * Math.cos(phi), 10 * Math.sin(theta) * Math.sin(phi), 10 * Math.cos(theta)];
  };
  const top: [number, number, number] = [0, 0, 10];
  const bottom: [number, number, number] = [0, 0, -10];
  const triangles: [number, number, number][][] = [];
  for (let j = 0; j < slices; j += 1) {
    triangles.push([top, ring(1, j), ring(1, j + 1)]);
    for (let i = 1; i < stacks - 1; i += 1) {
      triangles.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
      triangles.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
    }
    triangles.push([bottom, ring(stacks - 1, j + 1), ring(stacks - 1, j)]);
  }
  const bytes = Buffer.alloc(84 + 50 * triangles.length);
  bytes.write('journey sphere', 0, 'ascii');
  bytes.writeUInt32LE(triangles.length, 80);
  triangles.forEach((triangle, t) =>
    triangle.forEach((corner, k) =>
      corner.forEach((value, axis) => bytes.writeFloatLE(value, 84 + 50 * t + 12 + 12 * k + 4 * axis)),
    ),
  );
  return bytes;
}

/** A second person joins the workspace through the mailed invitation and is accepted by the admin. */
async function addTeammate(admin: Page, deviceId: string, name: string): Promise<void> {
  const email = uniqueEmail('teammate');
  await api(admin, 'POST', `/api/devices/${deviceId}/invitations`, { email, role: 'member' });
  const context = await admin.context().browser()!.newContext();
  const teammate = await context.newPage();
  await signUp(teammate, await mailedInvitationPath(email), name, email);
  await expect(teammate.getByText(/waiting for approval|An admin of the device workspace/i).first()).toBeVisible();
  const me = (await (await teammate.request.get('/api/auth/me')).json()) as { id: string };
  await api(admin, 'POST', `/api/devices/${deviceId}/members/${me.id}/approve`, {});
  await context.close();
}

test('a project is created end to end, with a new device version that joins it once processed', async ({ page }) => {
  test.setTimeout(300_000);
  const stamp = Date.now();
  const title = `Mitral sizing ${stamp}`.slice(0, 50);
  const cohortName = `Wizard cohort ${stamp}`;
  const versionName = `Frame ${stamp}`;
  const question = 'Does the 26 mm frame seal the annulus in end-systole?';

  await signUp(page, '/help', 'Wanda Wizard');
  await expect(page).toHaveURL(/\/help$/);
  const deviceId = await createWorkspace(page, `Valve W ${stamp}`);
  await addTeammate(page, deviceId, 'Theo Teammate');

  // Step 1: the title, with the spec's rule said as it is typed.
  await page.goto('/projects/create');
  await expect(page).toHaveURL(/\/projects\/create\/title$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create project' })).toBeVisible();
  const titleField = page.getByRole('textbox', { name: 'Project title' });
  await titleField.fill('x'.repeat(51));
  await expect(page.getByText('Project title is too long. Maximum 50 characters.')).toBeVisible();
  await titleField.fill(title);
  await expect(page.getByText('Project title is too long. Maximum 50 characters.')).toBeHidden();
  // Leaving with unsaved progress asks first (spec §4, §8); Stay keeps what was typed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave the page?' });
  await expect(leave.getByText('Are you sure you want to leave the page? Your progress will be lost.')).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/title$/);
  await expect(titleField).toHaveValue(title);
  // The workspace has one stage: it is chosen already.
  await expect(page.getByRole('radio', { name: 'Concept and design feasibility' })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 2: a cohort ordered inline (the ordering flow of the cohort pages).
  await expect(page).toHaveURL(/\/projects\/create\/patient-cohort-list$/);
  await page.getByRole('button', { name: 'Order a new cohort' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/new-patient-cohort$/);
  await expect(page.getByText('Synthetic').first()).toBeVisible();
  await page.getByRole('button', { name: 'Female', exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: '5 patients' }).click();
  await page.getByLabel('Cohort name').fill(cohortName);
  await page.getByRole('button', { name: 'Order cohort' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/patient-cohort-list$/);
  await expect(page.getByRole('checkbox', { name: cohortName })).toBeChecked();

  // The draft is on the server: a reload continues with the title and the cohort.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: cohortName })).toBeChecked();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('textbox', { name: 'Project title' })).toHaveValue(title);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/patient-cohort-list$/);
  await expect(page.getByRole('checkbox', { name: cohortName })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 3: a new question of interest with the V&V 40 fields and its model risk level.
  await expect(page).toHaveURL(/\/projects\/create\/question-of-interest$/);
  await page.getByRole('button', { name: 'New question of interest' }).click();
  await page.getByRole('textbox', { name: 'Question of interest' }).fill(question);
  await page.getByRole('textbox', { name: 'Context of use (optional)' }).fill('Replaces a bench leak test.');
  await expect(page.getByText('Model risk not assessed')).toBeVisible();
  await page.getByRole('combobox', { name: 'Model influence (optional)' }).click();
  await page.getByRole('option', { name: 'High' }).click();
  await page.getByRole('combobox', { name: 'Decision consequence (optional)' }).click();
  await page.getByRole('option', { name: 'Medium' }).click();
  await expect(page.getByText('Model risk 4 of 5')).toBeVisible();
  await page.getByRole('button', { name: 'Save question' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/question-of-interest$/);
  await expect(page.getByRole('radio', { name: question })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 4 is left empty at first; step 5: the team — only users of the workspace; nobody else matches.
  await expect(page).toHaveURL(/\/projects\/create\/device-version$/);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/team$/);
  const search = page.getByRole('combobox', { name: 'Add a team member' });
  await search.fill('nobody-like-this');
  await expect(page.getByText('No match. Contact admin to invite new users to device workspace.')).toBeVisible();
  await search.fill('Theo');
  await page.getByRole('option', { name: /Theo Teammate/ }).click();
  await expect(page.getByRole('list', { name: 'Project team' }).getByText('Theo Teammate')).toBeVisible();

  // Back to step 4 for a NEW device version, uploaded with tus, made last so it is still processing at the end.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/device-version$/);
  await page.getByRole('button', { name: 'New device version' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/new-device-version$/);
  await page.getByLabel('Device version name').fill(versionName);
  await page.getByLabel('Description').fill('26 mm frame, first iteration');
  await page
    .getByLabel('3D model files (.stl)')
    .setInputFiles([{ name: 'frame.stl', mimeType: 'model/stl', buffer: binarySphere() }]);
  await expect(page.getByRole('list', { name: 'Files of the device version' }).getByText('Uploaded')).toBeVisible({
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Create device version' }).click();
  await expect(page).toHaveURL(/\/projects\/create\/device-version$/);
  const newVersion = page.getByRole('list', { name: 'Device versions to choose from' }).getByRole('listitem').filter({
    hasText: versionName,
  });
  // Listed and chosen at once; whether it still shows Processing depends on how fast its job ran (a small sphere,
  // taken as soon as it is queued), so that transient state is not asserted.
  await expect(newVersion).toBeVisible();
  await expect(newVersion.getByRole('checkbox')).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('list', { name: 'Project team' }).getByText('Theo Teammate')).toBeVisible();
  await page.getByRole('button', { name: 'Create project' }).click();

  // The project opens; the version joins it once processed (linked through its target project when it was still
  // processing, directly when it finished first: both end the same way), and a notification says it is ready.
  await expect(page).toHaveURL(/\/projects\/view\/stats\?project=[\w-]+$/);
  const projectId = new URL(page.url()).searchParams.get('project')!;
  const bell = page.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 120_000 });
  await bell.click();
  // The list follows live (the cohort's own notification may have lit the bell first).
  await expect(page.getByText(`Device version ${versionName} is ready`)).toBeVisible({ timeout: 120_000 });
  await page.keyboard.press('Escape');

  const project = (await (await page.request.get(`/api/devices/${deviceId}/projects/${projectId}`)).json()) as {
    name: string;
    question: { question: string; riskLevel: number | null } | null;
    cohorts: { name: string }[];
    deviceVersions: { name: string; status: string }[];
    team: { name: string }[];
  };
  expect(project.name).toBe(title);
  expect(project.question).toMatchObject({ question, riskLevel: 4 });
  expect(project.cohorts.map((cohort) => cohort.name)).toEqual([cohortName]);
  expect(project.deviceVersions).toEqual([expect.objectContaining({ name: versionName, status: 'ready' })]);
  expect(project.team.map((person) => person.name).sort()).toEqual(['Theo Teammate', 'Wanda Wizard']);

  // The draft is gone: a new wizard starts empty.
  await page.goto('/projects/create');
  await expect(page.getByRole('textbox', { name: 'Project title' })).toHaveValue('');
});
