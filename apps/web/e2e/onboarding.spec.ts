import { expect, test } from '@playwright/test';
import { pngFile } from './pictures';
import { signUp, uniqueEmail } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL): a new user signs up, goes through the five
// onboarding steps, sees the countdown and lands in the new workspace.

test('a new user goes through the onboarding, sees the countdown and lands in the new workspace', async ({ page }) => {
  // Five steps against the real server on a shared, busy machine.
  test.setTimeout(120_000);
  const deviceName = `Stent S ${Date.now()}`;
  await signUp(page, '/', 'Olga Onboarding', uniqueEmail('onboarding'));

  // No workspace yet: the home sends the user to the step they are on.
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Body part' })).toBeVisible();
  const stepper = page.getByLabel('Onboarding steps');
  for (const header of ['Body part', 'Development stage', 'Device details', 'Your company', 'Your team'])
    await expect(stepper.getByText(header, { exact: true })).toBeVisible();

  // 1. Body part: only heart and thorax.
  await expect(page.getByLabel('Spinal (not available yet)')).toBeDisabled();
  await page.getByLabel('Heart and thorax').check();
  await page.getByRole('button', { name: 'Next' }).click();

  // 2. Development stage: animal testing is not available.
  await expect(page).toHaveURL(/\/onboarding\/development-phase$/);
  await expect(page.getByLabel('Animal testing (not available)')).toBeDisabled();
  await page.getByLabel('Concept and design feasibility').check();
  await page.getByRole('button', { name: 'Next' }).click();

  // 3. Device details: Other needs its specification; a device picture is uploaded at once.
  await expect(page).toHaveURL(/\/onboarding\/device-details$/);
  await page.getByLabel('Choose a file for the device picture').setInputFiles(pngFile('device.png'));
  await expect(page.getByRole('img', { name: 'Device picture' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change picture' })).toBeVisible();
  await page.getByLabel('Device name').fill(deviceName);
  await page.getByRole('combobox', { name: /Device type/ }).click();
  await page.getByRole('option', { name: 'Other' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please specify the device type when you choose Other.')).toBeVisible();
  await expect(page).toHaveURL(/\/onboarding\/device-details$/);
  await page.getByLabel('Specify the device type').fill('Occluder');
  await page.getByRole('button', { name: 'Next' }).click();

  // 4. Your company: leaving with unsaved input asks first.
  await expect(page).toHaveURL(/\/onboarding\/your-company$/);
  await page.getByLabel('Company name').fill('Cardio Inc');
  await page.getByRole('link', { name: 'Back' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave the page?' });
  await expect(leave.getByText('Are you sure you want to leave the page? Your progress will be lost.')).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/onboarding\/your-company$/);
  await expect(page.getByLabel('Company name')).toHaveValue('Cardio Inc');

  await page.getByLabel('Country').fill('United St');
  await page.getByRole('option', { name: 'United States (US)' }).click();
  await page.getByLabel('State').fill('Calif');
  await page.getByRole('option', { name: 'California (CA)' }).click();
  await page.getByLabel('Street address').fill('1 Main Street');
  await page.getByLabel('City').fill('Los Angeles');
  await page.getByLabel('Zip code').fill('90001');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/onboarding\/your-team$/);

  // A reload continues at the same step, and the home sends the user there too.
  await page.reload();
  await expect(page).toHaveURL(/\/onboarding\/your-team$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your team' })).toBeVisible();
  await page.goto('/');
  await expect(page).toHaveURL(/\/onboarding\/your-team$/);
  // The saved company is there when going back.
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByLabel('Company name')).toHaveValue('Cardio Inc');
  await expect(page.getByLabel('State')).toHaveValue('California (CA)');
  await page.getByRole('button', { name: 'Next' }).click();

  // 5. Your team: invite one colleague.
  await expect(page).toHaveURL(/\/onboarding\/your-team$/);
  await page.getByLabel('Colleague’s e-mail').fill(`colleague.${Date.now()}@example.com`);
  await page.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await page.getByRole('button', { name: 'Add colleague' }).click();
  await expect(page.getByRole('list', { name: 'Colleagues to invite' }).getByText('Admin')).toBeVisible();
  await page.getByRole('button', { name: 'Finish and create workspace' }).click();

  // The countdown, then the workspace with the new device selected.
  await expect(page).toHaveURL(/\/onboarding\/complete$/);
  await expect(page.getByRole('heading', { name: `Your device workspace “${deviceName}” is ready` })).toBeVisible();
  await expect(page.getByRole('timer')).toContainText(/Taking you to your workspace in \d seconds?/);
  await expect(page).toHaveURL((url) => url.pathname === '/', { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  const selected = (await (await page.request.get('/api/me/selected-device')).json()) as {
    device: { deviceName: string; devicePicture: string | null };
  };
  expect(selected.device.deviceName).toBe(deviceName);
  // The picture of step 3 became the workspace's device picture.
  expect(selected.device.devicePicture).toMatch(/^\/api\/devices\/[\w-]+\/picture\?v=/);
  expect((await page.request.get(selected.device.devicePicture!)).status()).toBe(200);
});
