import type { Locator } from '@playwright/test';
import { createWorkspace, signUp } from './workspace-helpers';
import { expect, test } from './csp';

// Runs against the real server (E2E_BASE_URL): a new user with a workspace orders a 20-patient cohort with
// criteria, sees it in progress, gets the notification when it is ready, and opens a patient's 3D preview.
// The workspace is made through the API: onboarding has its own journey.

test('a member orders a cohort, is notified when it is ready, and previews a patient in 3D', async ({ page }) => {
  // An order of 20 patients builds ≈ 280 phase meshes on a shared, busy machine.
  test.setTimeout(240_000);
  const cohortName = `Women with cine ${Date.now()}`;
  await signUp(page, '/help', 'Carla Cohort');
  await expect(page).toHaveURL(/\/help$/);
  await createWorkspace(page, `Valve V ${Date.now()}`);

  // No cohort yet.
  await page.goto('/patient-cohort');
  await expect(page.getByRole('heading', { name: 'No patient cohorts yet' })).toBeVisible();
  await page.getByRole('link', { name: 'Order a cohort' }).first().click();

  // Criteria: the statuses of spec §3, disabled options shown but not choosable, a live count.
  await expect(page).toHaveURL(/\/patient-cohort\/create$/);
  await expect(page.getByText('Synthetic').first()).toBeVisible();
  const count = page.getByRole('status', { name: 'Matching patients' });
  await expect(count).toHaveText(/^2,000 of 2,000 synthetic patients match$/);
  await expect(page.getByRole('button', { name: 'Pediatric (0–17) (not available)' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await page.getByRole('button', { name: 'Female', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Female: selected' })).toBeVisible();
  const female = Number((await waitForNewCount(count, '2,000')).replace(/,/g, ''));
  expect(female).toBeLessThan(2000);

  // A pathology click cycles select → exclude → deselect.
  const heartFailure = page.getByRole('button', { name: /^Heart failure/ });
  await heartFailure.click();
  await expect(page.getByRole('button', { name: 'Heart failure: selected' })).toBeVisible();
  await heartFailure.click();
  await expect(page.getByRole('button', { name: 'Heart failure: excluded' })).toBeVisible();

  // cine_ct selects end-systole and end-diastole too.
  await page.getByRole('button', { name: 'Cine CT', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cine CT: selected' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'End-systole: selected' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'End-diastole: selected' })).toBeVisible();
  await expect(count).not.toHaveText(new RegExp(`^${female.toLocaleString('en-GB')} of`));
  await expect(count).toHaveText(/^\d[\d,]* of 2,000 synthetic patients match$/);
  await page.getByRole('button', { name: 'Next' }).click();

  // Order: size, name with its warning, description.
  await expect(page).toHaveURL(/\/patient-cohort\/order-patient$/);
  await expect(page.getByText('Be descriptive: the name of a patient cohort cannot be changed later.')).toBeVisible();
  await page.getByRole('button', { name: '20 patients' }).click();
  await page.getByLabel('Cohort name').fill(cohortName);
  await page.getByLabel('Description').fill('Sizing study for the valve');
  await page.getByRole('button', { name: 'Order cohort' }).click();

  // In progress, then ready with a notification.
  await expect(page).toHaveURL(/\/patient-cohort\/cohorts\/[\w-]+\?device=/);
  await expect(page.getByRole('heading', { name: cohortName })).toBeVisible();
  await expect(page.getByText('In progress')).toBeVisible();
  await expect(page.getByText('The cohort is being prepared')).toBeVisible();
  // The notification reaches the open page live, and the page follows the order until it is ready.
  const bell = page.getByRole('button', { name: 'Notifications, unseen notifications' });
  await expect(bell).toBeVisible({ timeout: 180_000 });
  await expect(page.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await bell.click();
  const note = page.getByText(`Cohort ${cohortName} is ready`);
  await expect(note).toBeVisible();
  // The notification leads back to the cohort.
  await note.click();
  await expect(page).toHaveURL(/\/patient-cohort\/cohorts\/[\w-]+\?device=/);
  await expect(page.getByText('Ready', { exact: true })).toBeVisible();

  // The patients table: 20 synthetic women with cine and without heart failure.
  const table = page.getByRole('table', { name: 'Patients' });
  await expect(table.getByRole('row')).toHaveCount(21);
  await expect(table.getByRole('cell', { name: 'Male', exact: true })).toHaveCount(0);
  await expect(table.getByText('Heart failure')).toHaveCount(0);
  await page.getByLabel('Search patients').fill('no pathology');
  await expect(page.getByText(/of \d+$/)).toBeVisible();
  await page.getByLabel('Search patients').fill('');
  await expect(table.getByRole('row')).toHaveCount(21);

  // A patient: parameters and the 3D preview; switch the phase.
  await table.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/patients\/SYN-\d{6}\?device=/);
  await expect(page.getByRole('heading', { name: /^Patient SYN-\d{6}$/ })).toBeVisible();
  await expect(page.getByText('Synthetic').first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Heart' }).getByText('Aortic annulus area')).toBeVisible();
  const viewer = page.getByTestId('anatomy-viewer');
  await expect(viewer.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(viewer).toHaveAttribute('data-shown-phase', 'end-diastole', { timeout: 30_000 });
  await page.getByRole('button', { name: 'End-systole' }).click();
  await expect(viewer).toHaveAttribute('data-shown-phase', 'end-systole', { timeout: 30_000 });
  await expect(page.getByText('Showing End-systole')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Left lung' }).check();
  await page.getByRole('button', { name: 'Play cine' }).click();
  await expect(viewer).toHaveAttribute('data-shown-phase', /^cine-\d{2}of12$/, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Pause cine' }).click();
});

/** Waits until the live count shows a figure other than `previous`; answers the new figure. */
async function waitForNewCount(count: Locator, previous: string): Promise<string> {
  await expect(count).not.toHaveText(new RegExp(`^${previous} of`));
  await expect(count).toHaveText(/^\d[\d,]* of 2,000 synthetic patients match$/);
  const text = (await count.textContent()) ?? '';
  return text.split(' of ')[0] ?? '';
}
