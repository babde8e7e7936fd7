import { expect, test } from '@playwright/test';
import {
  addNewEntry,
  attachmentHashesInZip,
  requestQueuedEvidenceZip,
  sha256,
  sha256OfFile,
  startNewEntry,
} from './design-history-helpers';
import { createProject, createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 20 items 4 and 6: Ada adds a verification entry
// on /design-history with two files attached (a protocol and a 2.5 MB bench recording), sees each listed with its
// SHA-256 and downloads one byte for byte; then she asks for the project's evidence ZIP. The attached bytes pass the
// limit of a file made in the request, so the server queues a job (202): the page lists the file as being made, she
// is notified when it is ready, the notification leads to it, and the ZIP she downloads carries both files under
// their SHA-256.

test('an evidence ZIP with large attachments is made by a job, notified and downloaded', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, '/', 'Ada Admin');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(page, `Valve Z ${Date.now()}`);
  const name = `Fatigue bench ${Date.now() % 1e6}`;
  const projectId = await createProject(page, deviceId, name);

  // An entry with two files attached: a protocol and a bench recording larger than 2 MiB.
  const protocol = Buffer.from('step,load_N,cycles\n1,120,1000000\n2,150,400000\n');
  const recording = Buffer.alloc(2_500_000, 'strain gauge 7: 0.0123 0.0125 0.0121\n');
  await page.goto(`/design-history?projectId=${projectId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Design history' })).toBeVisible();
  const title = 'Fatigue test, 400 million cycles';
  const form = await startNewEntry(page, 'Verification', title);
  await form.getByLabel('Choose files to attach').setInputFiles([
    { name: 'protocol.csv', mimeType: 'text/csv', buffer: protocol },
    { name: 'strain-recording.txt', mimeType: 'text/plain', buffer: recording },
  ]);
  await expect(form.getByRole('list', { name: 'Files to attach' })).toContainText('strain-recording.txt (2.4 MB)');
  const entry = await addNewEntry(page, form, title);
  const files = entry.getByRole('list', { name: 'Attachments' });
  await expect(files.getByTestId('attachment')).toHaveCount(2);
  await expect(files).toContainText(`SHA-256 ${sha256(protocol)}`);
  await expect(files).toContainText(`SHA-256 ${sha256(recording)}`);
  const fileDownload = page.waitForEvent('download');
  await files.getByRole('link', { name: 'protocol.csv' }).click();
  const downloaded = await fileDownload;
  expect(downloaded.suggestedFilename()).toBe('protocol.csv');
  expect(await sha256OfFile(await downloaded.path())).toBe(sha256(protocol));

  // The evidence ZIP is queued: the page lists it being made (or already made), then ready to download.
  const filesMade = await requestQueuedEvidenceZip(page);
  await expect(filesMade).toContainText(`The evidence ZIP of ${name}`);
  const zipLink = filesMade.getByRole('link', { name: /^Download design-history-fatigue-bench-\d+-[\d-]+\.zip$/ });
  await expect(zipLink).toBeVisible({ timeout: 60_000 });

  // The requester is notified; the notification leads to the file on the design history page.
  const bell = page.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 30_000 });
  await bell.click();
  await page.getByText('Your design history file is ready').click();
  await expect(page).toHaveURL(/\/design-history\?.*export=/);
  const highlighted = page.getByRole('region', { name: 'Design history files' }).getByRole('alert');
  await expect(highlighted).toContainText(`The evidence ZIP of ${name}`);

  const zipDownload = page.waitForEvent('download');
  await highlighted.getByRole('link', { name: /^Download / }).click();
  const zip = await zipDownload;
  expect(await attachmentHashesInZip(await zip.path())).toEqual({
    'protocol.csv': sha256(protocol),
    'strain-recording.txt': sha256(recording),
  });
});
