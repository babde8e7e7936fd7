import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { pdfPhrases } from '../../../test/helpers/pdf-text';
import { api, createProject, createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 20 items 4–5: Ada completes a project (a review
// in its design history), adds a design review entry on /design-history, signs it as "Approved" — her first
// signature of the session asks for her e-mail address and password, and a wrong password signs nothing — then signs
// the completion with her password alone; the signatures show her name, the meaning and the UTC time, on the page,
// in the CSV export and in the design history file she downloads as PDF (read back with pdftotext).

test('an admin adds a design history entry and signs it with her password', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await signUp(page, '/', 'Ada Admin');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(page, `Valve D ${Date.now()}`);
  const name = `Signed sizing ${Date.now() % 1e6}`;
  const projectId = await createProject(page, deviceId, name);
  await api(page, 'POST', `/api/devices/${deviceId}/projects/${projectId}/status`, {
    status: 'completed',
    reason: 'Bench tests passed',
  });

  await page.goto('/design-history');
  await expect(page.getByRole('heading', { level: 1, name: 'Design history' })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Design history' });
  const completion = timeline.getByTestId('design-history-item').filter({ hasText: 'Reason: Bench tests passed' });
  await expect(completion).toContainText(`Ada Admin completed the project ${name}`);

  // Hovering the project highlights its entries.
  await page.getByRole('list', { name: 'Projects' }).getByText(name).hover();
  await expect(completion).toHaveAttribute('data-highlighted', 'true');

  // A new entry: a design review.
  await page.getByRole('button', { name: 'Add entry' }).click();
  const form = page.getByRole('form', { name: 'New design history entry' });
  await form.getByLabel('Entry kind').click();
  await page.getByRole('option', { name: 'Design review' }).click();
  await form.getByLabel(/^Title/).fill('Sizing review 1');
  await form.getByLabel('Text').fill('The sizing range 20–29 mm is confirmed by the bench tests.');
  // A trace link to the project's design input (its creation).
  await form.getByLabel('Evidence').click();
  await page.getByRole('option', { name: `Ada Admin created the project ${name}` }).click();
  await page.keyboard.press('Escape');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await expect(page.getByText('The entry was added to the design history.')).toBeVisible();
  const entry = timeline.getByTestId('design-history-item').filter({ hasText: 'Sizing review 1' });
  await expect(entry).toContainText('The sizing range 20–29 mm is confirmed by the bench tests.');
  await expect(entry.getByRole('list', { name: 'Evidence' })).toContainText(`Ada Admin created the project ${name}`);

  // Signing: the first signature of the session asks for both components; a wrong password signs nothing.
  await entry.getByRole('button', { name: 'Sign Sizing review 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign this record' });
  await dialog.getByLabel('Approved').check();
  await dialog.getByLabel(/E-mail/).fill(email);
  await dialog.getByLabel(/Password/).fill('not-my-password');
  await dialog.getByRole('button', { name: 'Sign' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'The e-mail address or password is not correct. Nothing was signed.',
  );
  await dialog.getByLabel(/Password/).fill('Valve-Sizing-2026');
  await dialog.getByRole('button', { name: 'Sign' }).click();
  await expect(dialog).toBeHidden();
  await expect(entry.getByTestId('signature')).toHaveText(
    /^Approved by Ada Admin · \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d UTC$/,
  );

  // Later in the session the password alone signs; the signing itself is a review in the history.
  await completion.getByRole('button', { name: /^Sign / }).click();
  await expect(dialog.getByLabel(/E-mail/)).toHaveCount(0);
  await dialog.getByLabel('Reviewed').check();
  await dialog.getByLabel(/Password/).fill('Valve-Sizing-2026');
  await dialog.getByRole('button', { name: 'Sign' }).click();
  await expect(dialog).toBeHidden();
  await expect(completion.getByTestId('signature')).toHaveText(/^Reviewed by Ada Admin · /);

  // Filtered to the reviews, the signings are there; the CSV export carries the signatures.
  await page.getByLabel('Section').click();
  await page.getByRole('option', { name: 'Reviews and approvals' }).click();
  await expect(page).toHaveURL(/section=review/);
  await expect(timeline.getByTestId('design-history-item').filter({ hasText: 'signed a record' })).toHaveCount(2);
  const csv = await (
    await page.request.get(`/api/devices/${deviceId}/design-history/export?projectId=${projectId}`)
  ).text();
  expect(csv).toContain('approval by Ada Admin');
  expect(csv).toContain('review by Ada Admin');

  // The project's design history file as PDF: the button is busy until the file has come, then downloads it.
  await page.getByLabel('Section').click();
  await page.getByRole('option', { name: 'All sections' }).click();
  await page.getByLabel('Project', { exact: true }).click();
  await page.getByRole('option', { name }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^design-history-signed-sizing-\d+-\d{4}-\d{2}-\d{2}\.pdf$/);
  await expect(page.getByRole('button', { name: 'Export PDF' })).toBeEnabled();
  const text = pdfPhrases(readFileSync(await download.path()));
  expect(text).toContain(`Project ${name}`);
  expect(text).toMatch(/Approved by Ada Admin on \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d UTC/);
  expect(text).toContain('Sizing review 1');
});
