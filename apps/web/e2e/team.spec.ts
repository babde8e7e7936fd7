import { expect, test } from '@playwright/test';
import { api, createWorkspace, mailedInvitationPath, signUp, uniqueEmail } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR), two users in two browser contexts.

// Words about the workspace, not spec §6's "this project" (issue 14; roleRefusalMessages.team of the contracts).
const guestTeamRefusal =
  'Guests do not see the team of a device workspace. Contact your device company admin if you need to know who works in it.';

test('(b) an admin invites a colleague, who follows the mailed link, signs up, waits, and is accepted', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const deviceName = `Valve T ${Date.now()}`;
  const adminContext = await browser.newContext();
  const colleagueContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const colleague = await colleagueContext.newPage();

  await signUp(admin, '/', 'Ada Admin');
  await expect(admin).toHaveURL(/\/onboarding\/body-part$/);
  await createWorkspace(admin, deviceName);

  // The admin invites from the add-user drawer.
  await admin.goto('/manage-team');
  await expect(admin.getByRole('heading', { level: 1, name: 'Manage team' })).toBeVisible();
  const table = admin.getByRole('table', { name: 'Team' });
  await expect(table.getByRole('row', { name: /Ada Admin \(you\)/ })).toContainText('OK');
  await admin.getByRole('button', { name: 'Add user' }).click();
  const drawer = admin.getByRole('dialog', { name: 'Add user' });
  const email = uniqueEmail('colleague');
  await drawer.getByLabel('E-mail').fill('not-an-address');
  await drawer.getByRole('button', { name: 'Send invitation' }).click();
  await expect(drawer.getByText('Enter a valid e-mail address.')).toBeVisible();
  await drawer.getByLabel('E-mail').fill(email);
  await drawer.getByRole('combobox', { name: 'Role' }).click();
  await admin.getByRole('option', { name: 'Member' }).click();
  await drawer.getByRole('button', { name: 'Send invitation' }).click();
  await expect(drawer).toBeHidden();
  await expect(admin.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(email.replace(/\./g, '\\.')) })).toContainText('Invited');

  // The last admin cannot demote themself: the server's refusal is shown.
  await table.getByRole('combobox', { name: 'Role of Ada Admin' }).click();
  await admin.getByRole('option', { name: 'Guest' }).click();
  await expect(
    admin.getByText('The last admin of a device cannot be demoted. Make another team member admin first.'),
  ).toBeVisible();

  // The colleague follows the mailed link, signs up on the way, and waits for approval.
  const link = await mailedInvitationPath(email);
  await signUp(colleague, link, 'Carl Colleague', email);
  await expect(colleague.getByRole('heading', { name: 'Waiting for an admin to accept you' })).toBeVisible();
  await expect(colleague.getByText(`You have joined “${deviceName}” as a member.`)).toBeVisible();
  await expect(colleague).toHaveURL(/\/accept-invitation\?device=/);
  // The link works once.
  const again = await colleagueContext.newPage();
  await again.goto(link);
  await expect(again.getByRole('alert')).toContainText('This invitation has been used already');
  await again.close();

  // The admin is told (issue 14): the bell lights up and its notification opens the team of this workspace.
  const bell = admin.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 30_000 });
  await bell.click();
  await admin.getByText(`Carl Colleague waits for your approval in "${deviceName}"`).click();
  await expect(admin).toHaveURL(/\/manage-team\?device=[\w-]+$/);

  // The admin accepts the pending colleague.
  const pendingRow = table.getByRole('row', { name: /Carl Colleague/ });
  await expect(pendingRow).toContainText('Pending approval');
  await pendingRow.getByRole('button', { name: 'Accept Carl Colleague' }).click();
  await expect(pendingRow).toContainText('OK');

  // The waiting page notices by itself and opens the workspace.
  await expect(colleague).toHaveURL((url) => url.pathname === '/', { timeout: 20_000 });
  await expect(colleague.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(colleague.getByRole('button', { name: `Workspace: ${deviceName}` })).toBeVisible();
  // As a member the colleague sees the team read-only.
  await colleague.goto('/manage-team');
  await expect(colleague.getByRole('row', { name: /Ada Admin/ })).toBeVisible();
  await expect(colleague.getByRole('button', { name: 'Add user' })).toHaveCount(0);
  await expect(
    colleague.getByText('Only an admin of this device can invite, accept or remove team members.'),
  ).toBeVisible();

  // Removing asks first; the removed colleague's access ends at once.
  await pendingRow.getByRole('button', { name: 'Remove Carl Colleague' }).click();
  const confirm = admin.getByRole('dialog', { name: 'Remove Carl Colleague?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(pendingRow).toBeVisible();
  await pendingRow.getByRole('button', { name: 'Remove Carl Colleague' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(table.getByRole('row', { name: /Carl Colleague/ })).toHaveCount(0);
  await colleague.reload();
  await expect(colleague.getByText('You have no device workspace to manage yet')).toBeVisible();

  await adminContext.close();
  await colleagueContext.close();
});

test('(d) a guest cannot reach team management', async ({ browser }) => {
  test.setTimeout(90_000);
  const adminContext = await browser.newContext();
  const guestContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const guest = await guestContext.newPage();
  await signUp(admin, '/', 'Ada Admin');
  await expect(admin).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(admin, `Stent G ${Date.now()}`);

  const email = await signUp(guest, '/', 'Gus Guest');
  await expect(guest).toHaveURL(/\/onboarding\/body-part$/);
  await api(admin, 'POST', `/api/devices/${deviceId}/invitations`, { email, role: 'guest' });
  await guest.goto(await mailedInvitationPath(email));
  await expect(guest.getByRole('heading', { name: 'Waiting for an admin to accept you' })).toBeVisible();
  const me = (await (await guest.request.get('/api/auth/me')).json()) as { id: string };
  await api(admin, 'POST', `/api/devices/${deviceId}/members/${me.id}/approve`, {});
  await expect(guest).toHaveURL((url) => url.pathname === '/', { timeout: 20_000 });

  await guest.getByRole('button', { name: 'Account and settings' }).click();
  await guest.getByRole('menuitem', { name: 'Manage team' }).click();
  await expect(guest).toHaveURL(/\/manage-team$/);
  await expect(guest.getByText(guestTeamRefusal)).toBeVisible();
  await expect(guest.getByRole('table', { name: 'Team' })).toHaveCount(0);
  await expect(guest.getByRole('button', { name: 'Add user' })).toHaveCount(0);

  await adminContext.close();
  await guestContext.close();
});
