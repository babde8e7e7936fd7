import { expect, test } from '@playwright/test';
import { confirmMailedSignUp } from './workspace-helpers';

// Runs against the real server that `npm test` starts: a background job ends in a notification
// that reaches the open page live (Server-Sent Events) and is marked seen when the bell is opened.

test('a finished background job shows up in the bell without a reload', async ({ page, baseURL }) => {
  await page.goto('/help');
  await page.getByRole('link', { name: 'Create an account' }).click();
  const email = `bell.${Date.now()}@example.com`;
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Full name').fill('Bea Bell');
  await page.getByLabel('Password').fill('Valve-Sizing-2026');
  await page.getByRole('button', { name: 'Create account' }).click();
  await confirmMailedSignUp(page, email);
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  const started = await page.request.post('/api/jobs/self-check', {
    data: { seconds: 1 },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(started.status()).toBe(202);

  const bell = page.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 30_000 });
  await bell.click();
  await expect(page.getByText('Background jobs are working')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
});
