import { expect, test, type Page } from '@playwright/test';

// The shell against a mocked API (Playwright route interception), so it runs against
// `vite preview` as well as against the real server. Journeys with the real API live beside it.

const user = {
  id: 'u-1',
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  jobTitle: 'Lead engineer',
  pictureUrl: null,
  identityProvider: 'embedded',
  passwordChangeUrl: null,
  createdAt: '2026-03-05T12:00:00.000Z',
};

const notifications = [
  {
    id: 'n-2',
    kind: 'device_version.processed',
    title: 'Device version “v2 large” is ready',
    body: 'It was processed and added to the project.',
    link: '/projects/view/stats',
    createdAt: '2026-11-20T09:30:00.000Z',
    seenAt: null,
  },
  {
    id: 'n-1',
    kind: 'cohort_order.ready',
    title: 'Patient cohort “Adults 50” is ready',
    body: '',
    link: null,
    createdAt: '2026-11-18T16:05:00.000Z',
    seenAt: '2026-11-18T17:00:00.000Z',
  },
];

async function mockApi(page: Page, me: { status: number; body: unknown }) {
  const seenBodies: unknown[] = [];
  await page.route('**/api/auth/me', (route) => route.fulfill({ status: me.status, json: me.body }));
  await page.route('**/api/me/profile', (route) =>
    route.fulfill({
      status: me.status,
      json:
        me.status === 200
          ? { email: user.email, fullName: user.fullName, jobTitle: user.jobTitle, pictureUrl: user.pictureUrl }
          : me.body,
    }),
  );
  await page.route('**/api/notifications/stream', (route) => route.abort());
  // The account menu asks whether the user is an operator (its "Product analytics" link).
  await page.route('**/api/analytics/access', (route) => route.fulfill({ json: { isOperator: false } }));
  await page.route('**/api/notifications/seen', (route) => {
    seenBodies.push(route.request().postDataJSON());
    return route.fulfill({ status: 200, json: { hasUnseen: false } });
  });
  await page.route('**/api/notifications?*', (route) =>
    route.fulfill({ json: { items: notifications, hasUnseen: true, nextBefore: null } }),
  );
  await page.route('**/api/auth/login?*', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<h1>Sign-in page</h1>' }),
  );
  return { seenBodies };
}

test('a signed-in user sees the shell, and opening the bell marks notifications seen', async ({ page }) => {
  const { seenBodies } = await mockApi(page, { status: 200, body: user });
  await page.goto('/projects/overview?stage=concept');

  await expect(page.getByRole('heading', { level: 1, name: 'Projects overview' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Projects' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle('Projects overview · InSilico Workspace');
  await page.screenshot({ path: 'test-results/shell-projects-overview.png', fullPage: true });

  const bell = page.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible();
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByText('Device version “v2 large” is ready')).toBeVisible();
  await expect(panel.getByText('20.11.2026', { exact: false })).toBeVisible();
  await expect.poll(() => seenBodies).toEqual([{ ids: ['n-2'] }]);
  await page.screenshot({ path: 'test-results/shell-notifications.png' });

  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Account and settings' }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'My account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  await expect(page.getByText('05.03.2026')).toBeVisible();
});

test('a visitor without a session is sent to sign-in with returnTo', async ({ page }) => {
  await mockApi(page, { status: 401, body: { error: { code: 'unauthenticated', message: 'Sign in first' } } });
  await page.goto('/projects/overview?stage=concept');
  await expect(page).toHaveURL(/\/api\/auth\/login\?returnTo=%2Fprojects%2Foverview%3Fstage%3Dconcept$/);
});

test('a failing profile call shows the error placeholder with the status', async ({ page }) => {
  await mockApi(page, { status: 500, body: { error: { code: 'internal', message: 'Something broke.' } } });
  await page.goto('/help');
  await expect(page.getByRole('alert')).toContainText('status 500');
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await page.screenshot({ path: 'test-results/shell-session-error.png' });
});
