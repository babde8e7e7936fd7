import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Maintenance is switched on through the operator route
// (as `npm run maintenance` does) while a user is in the app, and always switched off again.

async function maintenance(body: { mode: 'on'; text: string } | { mode: 'off' }) {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: the journey switches maintenance with the operator token.');
  const server = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as {
    port: number;
    operatorToken: string | null;
  };
  if (!server.operatorToken) throw new Error('The server runs without the embedded database: no operator route.');
  const response = await fetch(`http://127.0.0.1:${server.port}/api/operator/maintenance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

test('maintenance switched on while a user is in the app brings them to the notice, not to a loading error', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, '/', 'Mia Maintenance');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  await createWorkspace(page, `Valve M ${Date.now()}`);
  await page.goto('/projects/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects overview' })).toBeVisible();

  const text = 'Upgrading the database. Back at 10:00 UTC.';
  await maintenance({ mode: 'on', text });
  try {
    // The cohort pages are a chunk the app has not loaded yet: the server answers 503 for the file. A background
    // request (the notification stream, a poll) may meet a 503 first and bring the user to the notice before the
    // click lands; then the link is gone and the click would wait for it forever. Either way is the journey.
    const cohorts = page.getByRole('link', { name: 'Patient cohorts' }).first();
    await Promise.race([
      cohorts.click({ timeout: 15_000 }).catch(() => undefined),
      page.waitForURL(/\/maintenance\.html$/),
    ]);
    await expect(page).toHaveURL(/\/maintenance\.html$/);
    await expect(page.getByRole('heading', { name: 'Down for maintenance' })).toBeVisible();
    await expect(page.getByTestId('maintenance-text')).toHaveText(text);
    await expect(page.getByText(/dynamically imported module/)).toHaveCount(0);
  } finally {
    await maintenance({ mode: 'off' });
  }
  await page.getByRole('link', { name: 'try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
});
