import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createWorkspace, signUp, uniqueEmail } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR): a user asks support from the drawer,
// support staff (flag set through the operator route) answer in the inbox, the user is notified.

/** A real 1×1 PNG. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Makes the account support staff as an operator does (`npm run operator -- support-staff <e-mail> on`). */
async function makeSupportStaff(email: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir)
    throw new Error('E2E_DATA_DIR is not set: the journey sets the support-staff flag with the operator token.');
  const server = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as {
    port: number;
    operatorToken: string | null;
  };
  if (!server.operatorToken)
    throw new Error('The server runs without the embedded database: no operator route to set the flag.');
  const response = await fetch(`http://127.0.0.1:${server.port}/api/operator/support-staff`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, isSupport: true }),
  });
  expect(response.status, await response.text()).toBe(200);
}

test('a user asks support from the drawer, staff answer in the inbox, the user sees the answer', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const deviceName = `Valve S ${Date.now()}`;
  const subject = `Cannot place my stent ${Date.now()}`;
  const userContext = await browser.newContext();
  const staffContext = await browser.newContext();
  const user = await userContext.newPage();
  const staff = await staffContext.newPage();

  await signUp(user, '/', 'Una User');
  await expect(user).toHaveURL(/\/onboarding\/body-part$/);
  await createWorkspace(user, deviceName);
  await user.goto('/help');
  await expect(user.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
  await expect(user.getByText('You have not asked support anything yet.')).toBeVisible();

  // The drawer from the top bar's help menu.
  await user.getByRole('button', { name: 'Help and support' }).click();
  await user.getByRole('menuitem', { name: 'Ask support' }).click();
  const drawer = user.getByRole('dialog', { name: 'Ask support' });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Send request' }).click();
  await expect(drawer.getByText('Please enter a subject.')).toBeVisible();
  await drawer.getByLabel('Subject').fill(subject);
  await drawer.getByLabel('Message').fill('The stent does not snap to the vessel wall in room 2.');
  // A file that is no picture is refused, whatever its name; a PNG is attached.
  await drawer
    .getByLabel('Screenshot file')
    .setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: Buffer.from('plain text') });
  await expect(drawer.getByText('Upload one of these image types: jpg, jpeg, png')).toBeVisible();
  await drawer.getByLabel('Screenshot file').setInputFiles({ name: 'room-2.png', mimeType: 'image/png', buffer: png });
  await expect(drawer.getByRole('img', { name: 'Attached screenshot' })).toBeVisible();
  await drawer.getByRole('button', { name: 'Send request' }).click();
  await expect(drawer.getByText('Your request was sent')).toBeVisible();
  await drawer.getByRole('link', { name: 'See your requests' }).click();
  await expect(drawer).toBeHidden();
  const mine = user.getByRole('list', { name: 'Your support requests' });
  await expect(mine.getByRole('button', { name: new RegExp(subject) })).toContainText('Open');

  // Support staff: the flag comes from the operator, never from the API.
  const staffEmail = uniqueEmail('staff');
  await signUp(staff, '/help', 'Sam Support', staffEmail);
  await expect(staff.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
  await staff.goto('/support-inbox');
  await expect(staff.getByText('The support inbox is for support staff only.')).toBeVisible();
  await makeSupportStaff(staffEmail);
  await staff.goto('/help');
  await staff.getByRole('button', { name: 'Help and support' }).click();
  await staff.getByRole('menuitem', { name: 'Support inbox' }).click();
  await expect(staff.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();
  const row = staff.getByRole('table', { name: 'Support requests' }).getByRole('row', { name: new RegExp(subject) });
  await expect(row).toContainText('Una User');
  await expect(row).toContainText(deviceName);
  await row.click();
  await expect(staff.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await expect(staff.getByText('The stent does not snap to the vessel wall in room 2.')).toBeVisible();
  // The screenshot opens in a preview and closes with Escape.
  await staff.getByRole('button', { name: 'Open screenshot' }).click();
  await expect(staff.getByRole('dialog', { name: 'Screenshot' })).toBeVisible();
  await staff.keyboard.press('Escape');
  await expect(staff.getByRole('dialog', { name: 'Screenshot' })).toBeHidden();
  await staff.getByLabel('Your answer').fill('Turn on wall contact in the device settings, then place it again.');
  await staff.getByRole('button', { name: 'Send answer' }).click();
  await expect(staff.getByText('Answered', { exact: true })).toBeVisible();

  // The user's bell lights up live; the notification opens the answered request.
  const bell = user.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 30_000 });
  await bell.click();
  await user.getByText(`Support answered: ${subject}`).click();
  await expect(user).toHaveURL(/\/help\?request=/);
  const thread = user.getByRole('dialog', { name: subject });
  await expect(thread.getByText('Turn on wall contact in the device settings, then place it again.')).toBeVisible();
  await expect(thread.getByText('Answered', { exact: true })).toBeVisible();
  await thread.getByRole('button', { name: 'Close' }).click();
  await expect(mine.getByRole('button', { name: new RegExp(subject) })).toContainText('Answered');

  await userContext.close();
  await staffContext.close();
});
