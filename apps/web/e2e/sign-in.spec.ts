import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { confirmMailedSignUp } from './workspace-helpers';

// Runs against the real server that `npm test` starts (E2E_BASE_URL, E2E_DATA_DIR).
const dataDir = process.env.E2E_DATA_DIR;

function maintenance(...args: string[]): void {
  if (!dataDir)
    throw new Error('E2E_DATA_DIR is not set: run the journeys through `npm test`, which starts the server.');
  execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/maintenance.ts', ...args], {
    cwd: new URL('../../..', import.meta.url).pathname,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

test('a visitor is sent to sign-in, signs up, lands back on the page asked for, and signs out', async ({ page }) => {
  const email = `journey.${Date.now()}@example.com`;
  await page.goto('/projects/overview?stage=concept');

  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();

  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Full name').fill('Jane Journey');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Use at least 8 characters (this one has 5).')).toBeVisible();

  await page.getByLabel('Password').fill('Valve-Sizing-2026');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The same answer whether or not the address has an account; the mailed link finishes the sign-up.
  await confirmMailedSignUp(page, email);

  await expect(page).toHaveURL(/\/projects\/overview\?stage=concept$/);
  await expect(page.getByRole('heading', { name: 'Projects overview' })).toBeVisible();

  await page.getByRole('button', { name: 'Account and settings' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  // Signed out here and at the issuer: the workspace asks for credentials again.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const me = await page.request.get('/api/auth/me');
  expect(me.status()).toBe(401);
});

test('the maintenance page shows the operator’s text', async ({ page }) => {
  const text = `Planned maintenance ${Date.now()}: back at 14:00 UTC.`;
  maintenance('on', text);
  try {
    await page.goto('/projects/overview');
    await expect(page.getByText(text)).toBeVisible();
    await page.goto('/maintenance.html');
    await expect(page.getByRole('heading', { name: 'Down for maintenance' })).toBeVisible();
    await expect(page.getByText(text)).toBeVisible();
  } finally {
    maintenance('off');
  }
  await page.goto('/maintenance.html');
  await expect(page.getByRole('heading', { name: 'The workspace is available' })).toBeVisible();
});
