import { expect, test, type Page } from '@playwright/test';
import { createWorkspace, operatorRequest, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR), issue 21: with consent, a few actions and the page
// hidden → the beacon reaches our ingestion and the operator's report and page count the events; consent withdrawn
// or never given → nothing is sent. The operator page is for operators only.

const ingest = '/api/analytics/ingest';

/** Today's events by type in the operator's report (the journeys share a server: compare before and after). */
async function todaysEvents(): Promise<Record<string, number>> {
  const response = await operatorRequest('GET', '/api/operator/analytics?days=1');
  expect(response.status).toBe(200);
  const report = (await response.json()) as { days: Array<{ day: string; events: Record<string, number> }> };
  return report.days.at(-1)?.events ?? {};
}

/** Every analytics request the page makes while it is shown (uploads, the configuration). */
function analyticsRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/analytics/')) seen.push(`${request.method()} ${pathname}`);
  });
  return seen;
}

test('consent given: the events of a few actions arrive by beacon when the page is hidden; withdrawn: no more', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = analyticsRequests(page);
  const email = await signUp(page, '/', 'Ana Lytics');
  await createWorkspace(page, `Valve A ${Date.now()}`);
  const before = await todaysEvents();

  await page.goto('/my-account');
  const banner = page.getByRole('region', { name: 'Analytics consent' });
  await expect(banner).toBeVisible();
  expect(requests).toEqual([]); // nothing before consent, not even the configuration
  await banner.getByRole('button', { name: 'Allow analytics' }).click();
  await expect(banner).toBeHidden();
  expect((await context.cookies()).some((cookie) => cookie.name === 'insilico_analytics')).toBe(true);
  const share = page.getByRole('switch', { name: 'Share product analytics' });
  await expect(share).toBeChecked();

  // A few actions: pages of the app (client-side navigation keeps the queue in this page).
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/projects\//);
  await nav.getByRole('link', { name: 'Patient cohorts' }).click();
  await expect(page).toHaveURL(/\/patient-cohort/);
  expect(requests.filter((request) => request === `POST ${ingest}`)).toEqual([]); // waiting for the 30 s period

  // The page goes (pagehide): the queue leaves by beacon, well before the 30 s upload period. Playwright does not
  // report a beacon sent while its page unloads, so the server's report is the proof.
  await page.goto('about:blank');
  await expect
    .poll(async () => {
      const after = await todaysEvents();
      return {
        signedIn: (after['signed in'] ?? 0) - (before['signed in'] ?? 0),
        identify: (after.$identify ?? 0) - (before.$identify ?? 0),
        pageViews: (after['page viewed'] ?? 0) - (before['page viewed'] ?? 0),
      };
    })
    .toEqual({ signedIn: 1, identify: 1, pageViews: 3 });

  // Made an operator (`npm run operator -- operators <e-mail> on`), Ana reads the same events on the operator page.
  const made = await operatorRequest('POST', '/api/operator/operators', { email, isOperator: true });
  expect(made.status).toBe(200);
  await page.goto('/my-account');
  await page.getByRole('button', { name: 'Account and settings' }).click();
  await page.getByRole('menuitem', { name: 'Product analytics' }).click();
  await expect(page).toHaveURL(/\/analytics$/);
  await expect(page.getByRole('heading', { name: 'Product analytics' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Events per day from / })).toBeVisible();
  const funnel = page.getByRole('table', { name: 'Funnel' });
  await expect(funnel.getByRole('row', { name: /^simulation completed/ })).toBeVisible();
  const perFeature = page.getByRole('table', { name: 'Events per feature' });
  await expect(perFeature.getByRole('row', { name: /^page viewed \d+ \d+$/ })).toBeVisible();
  await page.getByRole('combobox', { name: 'Event' }).click();
  await page.getByRole('option', { name: 'page viewed' }).click();
  await expect(page).toHaveURL(/event=page\+viewed/);
  const received = page.getByRole('table', { name: 'Received events' });
  // At least the three page views of the beacon (newer ones may still be queued), the routes as patterns only.
  await expect(received.getByRole('row').filter({ hasText: email }).nth(2)).toBeVisible();
  await expect(received.getByRole('row').filter({ hasText: email }).first()).toContainText('"route":"/');

  // Withdrawn in My account: the cookie goes, and nothing more is sent, page hide included.
  await page.goto('/my-account');
  await expect(share).toBeChecked();
  await share.click();
  await expect(share).not.toBeChecked();
  expect((await context.cookies()).some((cookie) => cookie.name === 'insilico_analytics')).toBe(false);
  const withdrawn = await todaysEvents();
  await nav.getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/projects\//);
  await page.goto('about:blank');
  await page.waitForTimeout(1500);
  expect(await todaysEvents()).toEqual(withdrawn);
  expect(requests.filter((request) => request === `POST ${ingest}`)).toEqual([]);
  await context.close();
});

test('no consent: nothing is recorded or sent', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = analyticsRequests(page);
  await signUp(page, '/', 'Nora Consent');
  await createWorkspace(page, `Valve N ${Date.now()}`);
  await page.goto('/my-account');
  const banner = page.getByRole('region', { name: 'Analytics consent' });
  await banner.getByRole('button', { name: 'No, thanks' }).click();
  await expect(banner).toBeHidden();
  const share = page.getByRole('switch', { name: 'Share product analytics' });
  await expect(share).not.toBeChecked();
  await page.reload();
  await expect(share).not.toBeChecked();
  await expect(banner).toBeHidden(); // the refusal is remembered
  const before = await todaysEvents();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/projects\//);
  expect(await page.evaluate(() => window.localStorage.getItem('insilico.analytics'))).toBeNull();
  await page.goto('about:blank');
  await page.waitForTimeout(1500);
  expect(requests).toEqual([]);
  expect(await todaysEvents()).toEqual(before);

  // Not an operator: no link in the account menu, and the page says why (the server refuses with 403).
  await page.goto('/analytics');
  await expect(page.getByText('The product analytics are for operators only.')).toBeVisible();
  await page.getByRole('button', { name: 'Account and settings' }).click();
  await expect(page.getByRole('menuitem', { name: 'My account' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Product analytics' })).toHaveCount(0);
  await context.close();
});
