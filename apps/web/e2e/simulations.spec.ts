import { orderReadyCohort } from './cohort-helpers';
import { binaryCube, readyVersion } from './stl-helpers';
import { allowTestResolution, roomOnFirstPatient } from './simulation-helpers';
import { api, createWorkspace, mailedInvitationPath, signUp } from './workspace-helpers';
import { expect, test } from './csp';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). A member places a device in a room and sets up a fluid
// simulation at the test resolution (the operator's switch of this journey's own workspace: seconds of computing),
// watches it to completed in the room's list, renames it; a coarse run is cancelled; the project's list shows both;
// a guest on the project sees the list but has no Start button, and the server refuses a run with spec §6's message.

/** Spec §6's no-permission message. */
const noPermissionMessage =
  'You do not have permission to access this project. Contact your device company admin to check whether you have been added to this device or project.';

test('simulations in a room: set up, run to completed, rename, cancel; a guest only looks', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();

  await signUp(page, '/', 'Simone Sim');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(page, `Valve S ${Date.now()}`);
  await allowTestResolution(deviceId);

  // A guest of the workspace, on the project's team.
  const guestEmail = await signUp(guest, '/', 'Gus Guest');
  await expect(guest).toHaveURL(/\/onboarding\/body-part$/);
  await api(page, 'POST', `/api/devices/${deviceId}/invitations`, { email: guestEmail, role: 'guest' });
  await guest.goto(await mailedInvitationPath(guestEmail));
  await expect(guest.getByRole('heading', { name: 'Waiting for an admin to accept you' })).toBeVisible();
  const guestId = ((await (await guest.request.get('/api/auth/me')).json()) as { id: string }).id;
  await api(page, 'POST', `/api/devices/${deviceId}/members/${guestId}/approve`, {});

  const cohortId = await orderReadyCohort(page, deviceId, { name: `Sim ${Date.now()}`, size: 5 });
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: `Flow ${Date.now() % 1e6}`,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: [cohortId],
    versionIds: [],
    teamUserIds: [guestId],
  });
  const projectId = project.id as string;
  const versionName = `Cube ${Date.now() % 1e5}`;
  await readyVersion(page, deviceId, projectId, versionName, binaryCube());
  const roomId = await roomOnFirstPatient(page, deviceId, projectId, cohortId, 'Aortic root');
  const roomPath = `/projects/room?project=${projectId}&room=${roomId}&device=${deviceId}`;

  // The device at the aortic annulus, saved.
  await page.goto(roomPath);
  const scene = page.getByTestId('room-scene');
  await expect(scene).toHaveAttribute('data-shown-phase', /end-/, { timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Add a device version' }).click();
  await page.getByRole('option', { name: versionName }).click();
  await page.getByRole('combobox', { name: 'Landmark' }).click();
  await page.getByRole('option', { name: /^Aortic annulus/ }).click();
  await page.getByRole('button', { name: 'Snap to landmark' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The room is saved.')).toBeVisible({ timeout: 30_000 });

  // A fluid set-up: the simulated region is drawn, the test resolution offered, the estimate shown.
  await expect(page.getByRole('button', { name: 'Fluid' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Blood flow through the anatomy with the device in place.')).toBeVisible();
  await expect(scene).toHaveAttribute('data-simulated-region', 'shown', { timeout: 60_000 });
  await expect(page.getByRole('spinbutton', { name: 'Heart rate (bpm)' })).toHaveValue('70');
  await page.getByRole('radio', { name: /^Test \(seconds\)/ }).check();
  await expect(page.getByTestId('simulation-estimate')).toContainText('particles', { timeout: 30_000 });
  await page.getByRole('textbox', { name: 'Name (optional)' }).fill('Journey fluid');
  await page.getByRole('button', { name: 'Start simulation' }).click();

  // Its progress in the room's list, to completed; then renamed in place.
  const roomList = page.getByRole('region', { name: 'Simulations of this room' });
  const run = roomList.getByTestId('simulation-row').filter({ hasText: 'Journey fluid' });
  await expect(run).toHaveAttribute('data-status', /queued|running|completed/, { timeout: 30_000 });
  await expect(run).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(run.getByTestId('simulation-progress')).toContainText('(100 %)');
  await expect(run).toContainText(versionName);
  await expect(run).toContainText('Simone Sim');
  await expect(run.getByRole('link', { name: 'Open results' })).toHaveAttribute(
    'href',
    new RegExp(`^/projects/room/analyses\\?project=${projectId}&room=${roomId}&simulation=[\\w-]+&device=`),
  );
  // While edited the name is a field's value, no longer the row's text: the room's only row.
  await run.getByRole('button', { name: 'Rename simulation Journey fluid' }).click();
  const nameField = roomList.getByRole('textbox', { name: 'Simulation name' });
  await nameField.fill('Systolic jet');
  await nameField.press('Enter');
  const renamed = roomList.getByTestId('simulation-row').filter({ hasText: 'Systolic jet' });
  await expect(renamed).toHaveAttribute('data-status', 'completed');

  // A coarse run, cancelled while it is queued or running.
  await page.getByRole('radio', { name: /^Coarse/ }).check();
  await page.getByRole('textbox', { name: 'Name (optional)' }).fill('To cancel');
  await page.getByRole('button', { name: 'Start simulation' }).click();
  const cancelling = roomList.getByTestId('simulation-row').filter({ hasText: 'To cancel' });
  await cancelling.getByRole('button', { name: 'Cancel To cancel' }).click();
  await expect(cancelling).toHaveAttribute('data-status', 'cancelled', { timeout: 30_000 });
  await expect(cancelling.getByRole('button', { name: 'Retry To cancel' })).toBeVisible();

  // The project's list, on the Rooms tab, has both with their room.
  await page.goto(`/projects/view/rooms?project=${projectId}&device=${deviceId}`);
  const projectList = page.getByRole('region', { name: 'Simulations of the project' });
  await expect(projectList.getByTestId('simulation-row')).toHaveCount(2);
  await expect(projectList.getByRole('link', { name: 'Aortic root' })).toHaveCount(2);

  // The guest sees the runs, but cannot start, rename or cancel one; the server refuses a run with spec §6's words.
  await guest.goto(roomPath);
  const guestList = guest.getByRole('region', { name: 'Simulations of this room' });
  await expect(guestList.getByTestId('simulation-row')).toHaveCount(2, { timeout: 30_000 });
  // The notice comes with the set-up's answer, which took 7 s on the loaded 2-core machine (session 16).
  await expect(guest.getByText(/only the project team’s members and admins\s+start runs/)).toBeVisible({
    timeout: 60_000,
  });
  await expect(guest.getByRole('button', { name: 'Start simulation' })).toHaveCount(0);
  await expect(guestList.getByRole('button', { name: /^(Rename|Cancel|Retry|Delete) / })).toHaveCount(0);
  const refused = await guest.request.post(
    `/api/devices/${deviceId}/projects/${projectId}/rooms/${roomId}/simulations`,
    { data: { kind: 'fluid', resolution: 'coarse' }, headers: { Origin: new URL(guest.url()).origin } },
  );
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(noPermissionMessage);

  await guestContext.close();
});
