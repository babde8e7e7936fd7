import { expect, test } from '@playwright/test';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL): a user with one workspace adds a second device
// through the Add device steps and switches between the two in the top bar.

test('a user adds a second device and switches between the two', async ({ page }) => {
  test.setTimeout(120_000);
  const first = `Valve A ${Date.now()}`;
  const second = `Stent B ${Date.now()}`;
  await signUp(page, '/', 'Dana Device');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  await createWorkspace(page, first);
  await page.goto('/');
  const switcher = page.getByRole('button', { name: `Workspace: ${first}` });
  await expect(switcher).toBeVisible();

  // The switcher lists the workspace with its role and leads to Add device.
  await switcher.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: new RegExp(`${first}.*Admin`) })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await menu.getByRole('menuitem', { name: 'Add device' }).click();
  await expect(page).toHaveURL(/\/add-device$/);
  await page.getByRole('link', { name: 'Create new' }).click();

  // The onboarding's steps under the Add device routes, without a company step.
  await expect(page).toHaveURL(/\/add-device\/create-new$/);
  const stepper = page.getByLabel('Add device steps');
  for (const header of ['Body part', 'Development stage', 'Device details', 'Your team'])
    await expect(stepper.getByText(header, { exact: true })).toBeVisible();
  await expect(stepper.getByText('Your company')).toHaveCount(0);
  await page.getByLabel('Heart and thorax').check();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page).toHaveURL(/\/add-device\/development-stage$/);
  await expect(page.getByLabel('Animal testing (not available)')).toBeDisabled();
  await page.getByLabel('Clinical trial').check();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page).toHaveURL(/\/add-device\/device-details$/);
  await page.getByLabel('Device name').fill(second);
  await page.getByRole('combobox', { name: /Device type/ }).click();
  await page.getByRole('option', { name: 'Stent', exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();

  // A reload continues where the user was; Back goes to the device details with the saved answer.
  await expect(page).toHaveURL(/\/add-device\/your-team$/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Your team' })).toBeVisible();
  await expect(page.getByText('The new device workspace belongs to Cardio GmbH (Berlin, Germany)')).toBeVisible();
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByLabel('Device name')).toHaveValue(second);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/add-device\/your-team$/);
  await page.getByRole('button', { name: 'Finish and create workspace' }).click();

  // The new workspace is the selected one.
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(page.getByText(`Your device workspace “${second}” is ready.`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Workspace: ${second}` })).toBeVisible();

  // Switch back to the first; the choice persists (server-side, per user).
  await page.getByRole('button', { name: `Workspace: ${second}` }).click();
  await page.getByRole('menuitem', { name: new RegExp(first) }).click();
  await expect(page.getByRole('button', { name: `Workspace: ${first}` })).toBeVisible();
  await expect(page.getByText(`Workspace · ${first}`)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: `Workspace: ${first}` })).toBeVisible();
  const selected = (await (await page.request.get('/api/me/selected-device')).json()) as {
    device: { deviceName: string };
  };
  expect(selected.device.deviceName).toBe(first);

  // The keyboard works the switcher too: open, arrow to the other workspace, Enter.
  await page.getByRole('button', { name: `Workspace: ${first}` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  // The menu starts on the selected workspace; the next one is the second device.
  await expect(page.getByRole('menuitem', { name: new RegExp(first) })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: new RegExp(second) })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: `Workspace: ${second}` })).toBeVisible();
});
