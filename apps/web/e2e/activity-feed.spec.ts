import { expect, test } from '@playwright/test';
import { api, createWorkspace, mailedInvitationPath, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 20: Ada completes a project with a reason for
// change; Gil, a guest on that project's team, has the activity feed open and sees it arrive without a reload,
// with the reason and a link to the project; a change to a project Gil is not on never reaches his feed.

test('a teammate’s change appears live in the activity feed, scoped to the guest’s projects', async ({ browser }) => {
  test.setTimeout(120_000);
  const ada = await (await browser.newContext()).newPage();
  const gil = await (await browser.newContext()).newPage();

  await signUp(ada, '/', 'Ada Admin');
  await expect(ada).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(ada, `Valve F ${Date.now()}`);
  const gilEmail = await signUp(gil, '/', 'Gil Guest');
  await expect(gil).toHaveURL(/\/onboarding\/body-part$/);
  await api(ada, 'POST', `/api/devices/${deviceId}/invitations`, { email: gilEmail, role: 'guest' });
  await gil.goto(await mailedInvitationPath(gilEmail));
  await expect(gil.getByRole('heading', { name: 'Waiting for an admin to accept you' })).toBeVisible();
  const gilId = ((await (await gil.request.get('/api/auth/me')).json()) as { id: string }).id;
  await api(ada, 'POST', `/api/devices/${deviceId}/members/${gilId}/approve`, {});

  const stamp = Date.now() % 1e6;
  const shared = `Shared sizing ${stamp}`;
  const hidden = `Hidden anchoring ${stamp}`;
  const create = (name: string, teamUserIds: string[]) =>
    api(ada, 'POST', `/api/devices/${deviceId}/projects`, {
      name,
      developmentStage: 'concept_and_design_feasibility',
      cohortIds: [],
      versionIds: [],
      teamUserIds,
    });
  const sharedId = (await create(shared, [gilId])).id as string;
  const hiddenId = (await create(hidden, [])).id as string;

  // Gil's feed: the creation of his project only (the other one is not his to see).
  await api(gil, 'PUT', '/api/me/selected-device', { deviceId });
  await gil.goto('/activity-feed');
  await expect(gil.getByRole('heading', { level: 1, name: 'Activity feed' })).toBeVisible();
  const feed = gil.getByRole('list', { name: 'Activity' });
  await expect(feed.getByRole('link', { name: `Ada Admin created the project ${shared}` })).toBeVisible();
  await expect(feed.getByText(hidden)).toHaveCount(0);

  // Ada completes the shared project on the overview, giving her reason.
  await ada.goto('/projects/overview');
  await ada.getByRole('button', { name: `Actions for ${shared}` }).click();
  await ada.getByRole('menuitem', { name: 'Complete project' }).click();
  const dialog = ada.getByRole('dialog', { name: 'Complete project?' });
  await dialog.getByLabel(/Reason for change/).fill('Sizing study finished');
  await dialog.getByRole('button', { name: 'Complete project' }).click();
  await expect(dialog).toBeHidden();
  // And changes the hidden one through the API.
  await api(ada, 'POST', `/api/devices/${deviceId}/projects/${hiddenId}/status`, {
    status: 'abandoned',
    reason: 'Replaced',
  });

  // It reaches Gil's open page live, first, with its reason; the hidden project's move does not.
  const completed = feed.getByRole('listitem').first();
  await expect(completed).toContainText(`Ada Admin completed the project ${shared}`, { timeout: 20_000 });
  await expect(completed).toContainText('Reason: Sizing study finished');
  await expect(feed.getByText(hidden)).toHaveCount(0);

  // Filters: by kind, then a date range with nothing in it; the link opens the project.
  await gil.getByLabel('Kind').click();
  await gil.getByRole('option', { name: 'Project' }).click();
  await expect(gil).toHaveURL(/kind=project/);
  await expect(feed.getByRole('listitem')).toHaveCount(2);
  await gil.getByLabel('From').fill('2999-01-01');
  await expect(gil.getByText('No activity matches these filters.')).toBeVisible();
  await gil.getByRole('button', { name: 'Clear filters' }).click();
  await feed.getByRole('link', { name: `Ada Admin completed the project ${shared}` }).click();
  await expect(gil).toHaveURL(new RegExp(`/projects/view/stats\\?project=${sharedId}`));
});
