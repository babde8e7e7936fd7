import { expect, test, type Page } from '@playwright/test';
import { api, mailedInvitationPath, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Ada's workspace has two projects; on the overview she
// completes one and reactivates it, abandons the other (after cancelling once), filters by status and searches;
// in the project view she adds Bea to the team, removes her again, and is refused removing the last user.

const card = (page: Page, name: string) => page.getByRole('link', { name: new RegExp(`^${name}`) });

async function chooseStatus(page: Page, label: 'Active' | 'Completed' | 'Abandoned' | 'All') {
  await page.getByRole('group', { name: 'Project status' }).getByRole('button', { name: label, exact: true }).click();
  await expect(page.getByRole('button', { name: label, exact: true })).toHaveAttribute('aria-pressed', 'true');
}

async function move(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('projects move through complete, reactivate and abandon; filter, search and the project team', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const adaContext = await browser.newContext();
  const beaContext = await browser.newContext();
  const ada = await adaContext.newPage();
  const bea = await beaContext.newPage();

  await signUp(ada, '/', 'Ada Admin');
  await expect(ada).toHaveURL(/\/onboarding\/body-part$/);
  const created = await api(ada, 'POST', '/api/devices', {
    bodyParts: ['heart_and_thorax'],
    developmentStages: ['concept_and_design_feasibility', 'clinical_trial'],
    deviceInfo: { deviceName: `Valve O ${Date.now()}`, deviceType: 'valve_replacement' },
    company: {
      companyName: 'Cardio GmbH',
      country: 'DE',
      streetAddress: 'Hauptstraße 1',
      city: 'Berlin',
      zipCode: '10115',
    },
  });
  const deviceId = (created.device as { deviceId: string }).deviceId;
  const beaEmail = await signUp(bea, '/', 'Bea Member');
  await expect(bea).toHaveURL(/\/onboarding\/body-part$/);
  await api(ada, 'POST', `/api/devices/${deviceId}/invitations`, { email: beaEmail, role: 'member' });
  await bea.goto(await mailedInvitationPath(beaEmail));
  await expect(bea.getByRole('heading', { name: 'Waiting for an admin to accept you' })).toBeVisible();
  const beaId = ((await (await bea.request.get('/api/auth/me')).json()) as { id: string }).id;
  await api(ada, 'POST', `/api/devices/${deviceId}/members/${beaId}/approve`, {});

  const stamp = Date.now() % 1e6;
  const alpha = `Alpha sizing ${stamp}`;
  const beta = `Beta anchoring ${stamp}`;
  const create = (name: string, developmentStage: string) =>
    api(ada, 'POST', `/api/devices/${deviceId}/projects`, {
      name,
      developmentStage,
      cohortIds: [],
      versionIds: [],
      teamUserIds: [],
    });
  const alphaId = (await create(alpha, 'concept_and_design_feasibility')).id as string;
  await create(beta, 'clinical_trial');

  // The overview: active projects by stage.
  await ada.goto('/projects/overview');
  await expect(ada.getByRole('heading', { name: 'Projects overview' })).toBeVisible();
  await expect(ada.getByRole('button', { name: 'Active', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const concept = ada.getByRole('region', { name: /^Concept/ });
  const clinical = ada.getByRole('region', { name: /^Clinical/ });
  await expect(concept.getByRole('link', { name: new RegExp(`^${alpha}`) })).toBeVisible();
  await expect(clinical.getByRole('link', { name: new RegExp(`^${beta}`) })).toBeVisible();
  await expect(ada.getByRole('region', { name: /^Animal/ })).toContainText('No active projects in this stage.');
  await expect(ada.getByRole('link', { name: 'Create project' })).toBeVisible();

  // Complete Alpha (asked first): it leaves the active projects and shows among the completed ones.
  await move(ada, alpha, 'Complete project');
  const dialog = ada.getByRole('dialog', { name: 'Complete project?' });
  await expect(dialog).toContainText(`Mark “${alpha}” as completed?`);
  // A reason for change is asked (issue 20): without one the dialog says so and nothing changes.
  await dialog.getByRole('button', { name: 'Complete project' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Give a reason for this change: it is kept in the audit trail.');
  await dialog.getByLabel(/Reason for change/).fill('Sizing study finished');
  await dialog.getByRole('button', { name: 'Complete project' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(ada, alpha)).toBeHidden();
  await chooseStatus(ada, 'Completed');
  await expect(ada).toHaveURL(/status=completed/);
  await expect(card(ada, alpha)).toContainText('Completed');
  await expect(card(ada, beta)).toBeHidden();

  // A completed project offers only Reactivate, which asks for its reason too.
  await ada.getByRole('button', { name: `Actions for ${alpha}` }).click();
  await expect(ada.getByRole('menuitem')).toHaveText(['Reactivate project']);
  await ada.getByRole('menuitem', { name: 'Reactivate project' }).click();
  const reactivate = ada.getByRole('dialog', { name: 'Reactivate project?' });
  await reactivate.getByLabel(/Reason for change/).fill('More sizes to study');
  await reactivate.getByRole('button', { name: 'Reactivate project' }).click();
  await expect(card(ada, alpha)).toBeHidden();
  // The page, or each stage group while the lists refresh, says there is no completed project (one or two texts).
  await expect(ada.getByText('No completed projects').first()).toBeVisible();
  await chooseStatus(ada, 'Active');
  await expect(card(ada, alpha)).toContainText('Active');

  // Abandon Beta: cancelling keeps it; confirming moves it to the abandoned projects.
  await move(ada, beta, 'Abandon project');
  await ada.getByRole('dialog', { name: 'Abandon project?' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(card(ada, beta)).toBeVisible();
  await move(ada, beta, 'Abandon project');
  const abandon = ada.getByRole('dialog', { name: 'Abandon project?' });
  await abandon.getByLabel(/Reason for change/).fill('Design replaced');
  await abandon.getByRole('button', { name: 'Abandon project' }).click();
  await expect(card(ada, beta)).toBeHidden();
  await chooseStatus(ada, 'Abandoned');
  await expect(card(ada, beta)).toContainText('Abandoned');
  await expect(card(ada, alpha)).toBeHidden();
  await chooseStatus(ada, 'All');
  await expect(card(ada, alpha)).toBeVisible();
  await expect(card(ada, beta)).toBeVisible();

  // The search narrows the list; a search without match says so.
  await ada.getByRole('textbox', { name: 'Search projects by name' }).fill('alpha sizing');
  await expect(card(ada, beta)).toBeHidden();
  await expect(card(ada, alpha)).toBeVisible();
  await ada.getByRole('textbox', { name: 'Search projects by name' }).fill('nothing like this');
  await expect(ada.getByText('No projects match “nothing like this”')).toBeVisible();
  await ada.getByRole('textbox', { name: 'Search projects by name' }).fill('');

  // The card opens the project's Stats tab; the tabs keep the project.
  await card(ada, alpha).click();
  await expect(ada).toHaveURL(`/projects/view/stats?project=${alphaId}`);
  await expect(ada.getByRole('heading', { name: alpha, level: 1 })).toBeVisible();
  await expect(ada.getByRole('tab', { name: 'Rooms' })).toHaveAttribute(
    'href',
    `/projects/view/rooms?project=${alphaId}`,
  );
  const team = ada.getByRole('region', { name: 'Team' });
  await expect(team.getByRole('list', { name: 'Project team' }).getByRole('listitem')).toHaveCount(1);

  // Add Bea through the searchable select (nobody else matches: the spec's message), then remove her after asking.
  const search = team.getByRole('combobox', { name: 'Add a team member' });
  await search.fill('Nobody Here');
  await expect(ada.getByText('No match. Contact admin to invite new users to device workspace.')).toBeVisible();
  await search.fill('Bea');
  await ada.getByRole('option', { name: /Bea Member/ }).click();
  await expect(ada.getByText('Bea Member was added to the team.')).toBeVisible();
  await expect(team.getByRole('list', { name: 'Project team' }).getByRole('listitem')).toHaveCount(2);
  await team.getByRole('button', { name: 'Remove Bea Member from the project' }).click();
  await ada.getByRole('dialog', { name: 'Remove from the project?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(team.getByRole('list', { name: 'Project team' }).getByRole('listitem')).toHaveCount(1);

  // The last user cannot be removed: the dialog says so up front, with the suggestion to abandon the project
  // instead, and offers only Close (spec §4; nothing is sent that the server would refuse).
  await team.getByRole('button', { name: 'Remove Ada Admin from the project' }).click();
  const refusal = ada.getByRole('dialog', { name: 'The last user cannot be removed' });
  await expect(refusal).toContainText('Abandon the project instead');
  await expect(refusal.getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await refusal.getByRole('button', { name: 'Close' }).click();
  await expect(refusal).toBeHidden();
  await expect(team.getByRole('list', { name: 'Project team' }).getByRole('listitem')).toHaveCount(1);

  // Bea was told she had been added.
  await bea.goto('/');
  await bea.getByRole('button', { name: /^Notifications/ }).click();
  await expect(bea.getByText(`You were added to the project ${alpha}`)).toBeVisible();

  await adaContext.close();
  await beaContext.close();
});
