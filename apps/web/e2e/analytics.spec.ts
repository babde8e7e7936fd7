import { expect, test, type Page } from '@playwright/test';
import { createWorkspace, operatorRequest, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR), issue 21: with consent, a few actions and the page
// hidden → the beacon reaches our ingestion and the operator's report counts the events; consent withdrawn or
// never given → nothing is sent.

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
  await signUp(page, '/', 'Ana Lytics');
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
  await context.close();
});
