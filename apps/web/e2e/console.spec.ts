import { expect, test, type Page } from '@playwright/test';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). A signed-in user's page loads leave the console clean:
// no failed request (the three 401s of issue 14) and no warning or error, the router's included.

function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return problems;
}

test('a signed-out visitor’s next load asks only the profile call; no workspace call answers 401', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/projects/overview');
  await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  // The first start of a browser cannot know there is no user; from then on only the profile call asks, and its
  // 401 is spec §7's "no user".
  problems.length = 0;
  await page.goto('/patient-cohort');
  await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  expect(problems.filter((problem) => problem.startsWith('401 '))).toEqual(['401 /api/auth/me']);
});

test('page loads of a signed-in user leave the console clean: no 401, no warning, no error', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, '/', 'Cleo Console');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  await createWorkspace(page, `Valve C ${Date.now()}`);

  const problems = watch(page);
  for (const [path, heading] of [
    ['/', 'Home'],
    ['/projects/overview', 'Projects overview'],
    ['/patient-cohort', 'Patient cohorts'],
    ['/manage-team', 'Manage team'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // Late requests of the page (notifications, the workspace switcher) have time to answer.
    await page.waitForLoadState('networkidle');
  }
  expect(problems).toEqual([]);
});
