import { expect, test } from '@playwright/test';
import { api, createWorkspace, mailedInvitationPath, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR): two people on a project's team. Ada mentions Bea in a
// comment; Bea gets the notification and follows it to the comment, replies; Ada edits and deletes her comment.

test('a mention notifies a teammate, who follows it to the comment; reply, edit and delete', async ({ browser }) => {
  test.setTimeout(150_000);
  const adaContext = await browser.newContext();
  const beaContext = await browser.newContext();
  const ada = await adaContext.newPage();
  const bea = await beaContext.newPage();

  // Ada's workspace, with Bea as an accepted member.
  await signUp(ada, '/', 'Ada Admin');
  await expect(ada).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(ada, `Valve C ${Date.now()}`);
  const beaEmail = await signUp(bea, '/', 'Bea Member');
  await expect(bea).toHaveURL(/\/onboarding\/body-part$/);
  await api(ada, 'POST', `/api/devices/${deviceId}/invitations`, { email: beaEmail, role: 'member' });
  await bea.goto(await mailedInvitationPath(beaEmail));
  await expect(bea.getByRole('heading', { name: 'Waiting for an admin to accept you' })).toBeVisible();
  const beaId = ((await (await bea.request.get('/api/auth/me')).json()) as { id: string }).id;
  await api(ada, 'POST', `/api/devices/${deviceId}/members/${beaId}/approve`, {});
  await expect(bea).toHaveURL((url) => url.pathname === '/', { timeout: 20_000 });

  // A project with both on its team.
  const projectName = `Sizing ${Date.now() % 1e6}`;
  const project = await api(ada, 'POST', `/api/devices/${deviceId}/projects`, {
    name: projectName,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: [],
    versionIds: [],
    teamUserIds: [beaId],
  });
  const commentsPage = `/projects/view/comments?project=${project.id as string}`;

  // Ada mentions Bea, choosing her with the keyboard.
  await ada.goto(commentsPage);
  await expect(ada.getByText('No comments yet')).toBeVisible();
  const field = ada.getByRole('combobox', { name: 'Write a comment' });
  await field.click();
  await field.pressSequentially('Please check the annulus sizing, @Be');
  const options = ada.getByRole('listbox', { name: 'Team members' });
  await expect(options.getByRole('option', { name: 'Bea Member' })).toBeVisible();
  await field.press('Enter');
  await expect(options).toBeHidden();
  await field.pressSequentially('thanks');
  await expect(field).toHaveValue('Please check the annulus sizing, @Bea Member thanks');
  await ada.getByRole('button', { name: 'Comment', exact: true }).click();
  const adaComment = ada.getByRole('listitem', { name: 'Comment by Ada Admin' });
  await expect(adaComment).toContainText('Please check the annulus sizing,');
  await expect(adaComment.locator('[data-mention]')).toHaveText('@Bea Member');
  await expect(field).toHaveValue('');

  // Bea hears of it live and follows the notification to the comment.
  const bell = bea.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 30_000 });
  await bell.click();
  const note = bea.getByText(`Ada Admin mentioned you in the project "${projectName}"`);
  await expect(note).toBeVisible();
  await note.click();
  await expect(bea).toHaveURL(/\/projects\/view\/comments\?project=[\w-]+&device=[\w-]+&comment=[\w-]+/);
  const seen = bea.getByRole('listitem', { name: 'Comment by Ada Admin' });
  await expect(seen).toHaveAttribute('data-highlighted', 'true');
  await expect(seen).toContainText('@Bea Member');
  // Bea can reply, but neither edit nor delete Ada's comment.
  await expect(seen.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(seen.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await seen.getByRole('button', { name: 'Reply to Ada Admin' }).click();
  const reply = bea.getByRole('combobox', { name: 'Write a reply' });
  await reply.fill('Done: 23 mm fits all five patients.');
  await bea.getByRole('button', { name: 'Reply', exact: true }).click();
  const beaReply = bea.getByRole('listitem', { name: 'Comment by Bea Member' });
  await expect(beaReply).toContainText('Done: 23 mm fits all five patients.');

  // Ada edits her comment (marked edited), then deletes it after confirming; the reply keeps its place.
  await ada.reload();
  const mine = ada.getByRole('listitem', { name: 'Comment by Ada Admin' });
  await expect(mine.getByRole('listitem', { name: 'Comment by Bea Member' })).toBeVisible();
  await mine.getByRole('button', { name: 'Edit' }).first().click();
  const edit = ada.getByRole('combobox', { name: 'Edit your comment' });
  await expect(edit).toHaveValue('Please check the annulus sizing, @Bea Member thanks');
  await edit.fill('Please check the annulus sizing and the leaflet length.');
  await ada.getByRole('button', { name: 'Save' }).click();
  await expect(mine.getByText('(edited)')).toBeVisible();
  await expect(mine).toContainText('and the leaflet length.');

  await mine.getByRole('button', { name: 'Delete' }).first().click();
  const confirm = ada.getByRole('dialog', { name: 'Delete comment?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(mine.getByText('Comment deleted')).toBeVisible();
  await expect(mine.getByRole('listitem', { name: 'Comment by Bea Member' })).toContainText('Done: 23 mm');

  await adaContext.close();
  await beaContext.close();
});
