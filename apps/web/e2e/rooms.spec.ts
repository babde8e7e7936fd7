import { orderReadyCohort } from './cohort-helpers';
import { readyVersion } from './stl-helpers';
import { api, createWorkspace, signUp } from './workspace-helpers';
import { expect, test } from './csp';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). A project with a 5-patient cohort and a processed
// device version (made through the cohort, project, upload and device-version APIs); then in the browser: a room
// on a patient, the device placed and snapped to the mitral annulus and saved, a screenshot previewed, the room
// renamed (a duplicate name refused first), the rooms filtered, and a room deleted.

/** A closed binary STL: a square pyramid 24 mm wide and 12 mm high along +Z (the device's axis). */
function pyramidStl(): Buffer {
  const v = [
    [-12, -12, 0],
    [12, -12, 0],
    [12, 12, 0],
    [-12, 12, 0],
    [0, 0, 12],
  ] as const;
  const faces = [
    [0, 2, 1],
    [0, 3, 2],
    [0, 1, 4],
    [1, 2, 4],
    [2, 3, 4],
    [3, 0, 4],
  ] as const;
  const bytes = Buffer.alloc(84 + 50 * faces.length);
  bytes.writeUInt32LE(faces.length, 80);
  faces.forEach((face, index) =>
    face.forEach((vertex, corner) =>
      v[vertex].forEach((value, axis) => bytes.writeFloatLE(value, 84 + 50 * index + 12 + 12 * corner + 4 * axis)),
    ),
  );
  return bytes;
}

test('a room on a patient: place and snap a device, save, screenshot, rename, filter, delete', async ({ page }) => {
  test.setTimeout(480_000);
  await signUp(page, '/', 'Rosa Rooms');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(page, `Valve R ${Date.now()}`);
  const cohortId = await orderReadyCohort(page, deviceId, { name: `Rooms ${Date.now()}`, size: 5 });
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: `Rooms ${Date.now() % 1e6}`,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: [cohortId],
    versionIds: [],
    teamUserIds: [],
  });
  const projectId = project.id as string;
  const versionName = `Valve ${Date.now() % 1e5}`;
  await readyVersion(page, deviceId, projectId, versionName, pyramidStl());

  // The empty tab, then a room on the first patient of the cohort.
  await page.goto(`/projects/view/rooms?project=${projectId}`);
  await expect(page.getByText('This project has no rooms yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New room' }).click();
  const dialog = page.getByRole('dialog', { name: 'New room' });
  await expect(dialog.getByText('Synthetic')).toBeVisible();
  const firstPatient = dialog.getByRole('list', { name: 'Patients' }).getByRole('button').first();
  const patientId = ((await firstPatient.locator('.MuiListItemText-primary').textContent()) ?? '').trim();
  expect(patientId).toMatch(/^SYN-\d{6}$/);
  await firstPatient.click();
  await dialog.getByRole('button', { name: 'Create room' }).click();
  await expect(page).toHaveURL(/\/projects\/room\?project=[\w-]+&room=[\w-]+/);
  const roomName = `${patientId} room`;
  await expect(page.getByText(roomName, { exact: true })).toBeVisible();

  // The anatomy shows; the device version is added, snapped to the mitral annulus, and saved.
  const scene = page.getByTestId('room-scene');
  await expect(scene).toHaveAttribute('data-shown-phase', /end-/, { timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Add a device version' }).click();
  await page.getByRole('option', { name: versionName }).click();
  await expect(scene).toHaveAttribute('data-devices', '1');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.keyboard.press('e');
  await expect(page.getByRole('button', { name: 'Rotate (E)' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('w');
  await expect(page.getByRole('button', { name: 'Move (W)' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Snap to landmark' }).click();
  await expect(page.getByText('Snapped to Mitral annulus')).toBeVisible();

  // Leaving with unsaved changes asks first; Stay keeps the page.
  await page.getByRole('link', { name: 'Rooms of the project' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave the page?' });
  await expect(leave).toContainText('Are you sure you want to leave the page? Your progress will be lost.');
  await leave.getByRole('button', { name: 'Stay' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The room is saved.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  await page.reload();
  await expect(scene).toHaveAttribute('data-shown-phase', /end-/, { timeout: 60_000 });
  await expect(page.getByText('Snapped to Mitral annulus')).toBeVisible();
  await expect(scene).toHaveAttribute('data-devices', '1');

  // A screenshot goes to the gallery; its preview closes by Escape, by its button and by a click outside.
  await expect(page.getByText('No screenshot yet.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Take screenshot' }).click();
  const thumb = page
    .getByRole('region', { name: 'Screenshots' })
    .getByRole('button', { name: /Preview the screenshot/ });
  await expect(thumb).toHaveCount(1, { timeout: 30_000 });
  const preview = page.getByRole('dialog', { name: /Screenshot/ });
  await thumb.click();
  await expect(preview.getByRole('img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  await thumb.click();
  await preview.getByRole('button', { name: 'Close the preview' }).click();
  await expect(preview).toBeHidden();
  await thumb.click();
  await expect(preview).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(preview).toBeHidden();

  // A second room, on another patient, named Baseline.
  const patients = (await (
    await page.request.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients?pageSize=10`)
  ).json()) as { items: { id: string }[] };
  const otherPatient = patients.items.find((item) => item.id !== patientId)!.id;
  await api(page, 'POST', `/api/devices/${deviceId}/projects/${projectId}/rooms`, {
    cohortId,
    patientId: otherPatient,
    name: 'Baseline',
  });

  // Back to the tab: the card shows the screenshot; renaming to Baseline is refused and cancelled on confirm.
  await page.getByRole('link', { name: 'Rooms of the project' }).click();
  await expect(page).toHaveURL(/\/projects\/view\/rooms\?project=/);
  const card = page.getByRole('article', { name: `Room ${roomName}` });
  await expect(card.getByRole('img', { name: `Latest screenshot of ${roomName}` })).toBeVisible();
  await expect(card).toContainText('1 device placed');
  await card.getByRole('button', { name: `Rename room ${roomName}` }).click();
  const field = card.getByRole('textbox', { name: 'Room name' });
  await field.fill('baseline');
  await expect(card.getByRole('alert')).toHaveText(
    'A room with this name already exists in this project. Please choose another name.',
  );
  await field.press('Enter');
  await expect(field).toBeHidden();
  await expect(card.getByText(roomName, { exact: true })).toBeVisible();
  await card.getByRole('button', { name: `Rename room ${roomName}` }).click();
  await card.getByRole('textbox', { name: 'Room name' }).fill('Mitral valve sizing');
  await card.getByRole('button', { name: 'Confirm the name' }).click();
  const renamed = page.getByRole('article', { name: 'Room Mitral valve sizing' });
  await expect(renamed).toBeVisible();

  // Filters: search, patient, simulation.
  const rooms = page.getByRole('region', { name: 'Rooms' }).getByRole('article');
  await expect(rooms).toHaveCount(2);
  await page.getByRole('textbox', { name: 'Search rooms' }).fill('mitral');
  await expect(rooms).toHaveCount(1);
  await expect(renamed).toBeVisible();
  await page.getByRole('textbox', { name: 'Search rooms' }).fill('');
  await expect(rooms).toHaveCount(2);
  await page.getByRole('combobox', { name: 'Patient' }).click();
  await page.getByRole('option', { name: new RegExp(`^${otherPatient}`) }).click();
  await expect(rooms).toHaveCount(1);
  await expect(page.getByRole('article', { name: 'Room Baseline' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Patient' }).click();
  await page.getByRole('option', { name: 'All patients' }).click();
  await page.getByRole('combobox', { name: 'Simulation' }).click();
  await page.getByRole('option', { name: 'Has a simulation' }).click();
  await expect(page.getByText('No room matches these filters.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Simulation' }).click();
  await page.getByRole('option', { name: 'With or without' }).click();
  await expect(rooms).toHaveCount(2);

  // Delete after asking.
  await page.getByRole('button', { name: 'Delete room Baseline' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete room?' });
  await confirm.getByRole('button', { name: 'Delete room' }).click();
  await expect(confirm).toBeHidden();
  await expect(rooms).toHaveCount(1);
  await expect(page.getByRole('article', { name: 'Room Baseline' })).toHaveCount(0);

  // Changes made on the room's page show on the tab at once, without a reload (issue 14): the name, the screenshot
  // count. The tab's list was loaded seconds ago, well within the 60 s in which SWR would not ask again by itself.
  await page.getByRole('link', { name: 'Open room Mitral valve sizing' }).click();
  await expect(scene).toHaveAttribute('data-shown-phase', /end-/, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Rename room Mitral valve sizing' }).click();
  await page.getByRole('textbox', { name: 'Room name' }).fill('Mitral valve sizing, large');
  await page.getByRole('button', { name: 'Confirm the name' }).click();
  await expect(page.getByRole('button', { name: 'Rename room Mitral valve sizing, large' })).toBeVisible();
  await page.getByRole('button', { name: 'Take screenshot' }).click();
  await expect(thumb).toHaveCount(2, { timeout: 30_000 });
  await page.getByRole('link', { name: 'Rooms of the project' }).click();
  const changed = page.getByRole('article', { name: 'Room Mitral valve sizing, large' });
  await expect(changed).toBeVisible();
  await expect(changed).toContainText('2 screenshots');
});
