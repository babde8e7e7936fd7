import { buildPatientMeshes, generatePatient, landmarkOf, organMesh } from '@insilico/anatomy';
import { writeBinaryStl } from '@insilico/mesh';
import { expect, test } from './csp';
import { projectWithImagingDataset, zipOf } from './imaging-helpers';
import { allowTestResolution } from './simulation-helpers';
import { createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 19: a patient of the user's own imaging used like
// a built-in one. The de-identified dataset of a project is uploaded through the API (the upload itself is
// imaging-cohort.spec's journey), support staff deliver the patient's aortic root and landmarks, and the user finds
// the patient on the project's figures, sees it labelled as their own data in 3D, opens a room on it whose scene
// loads the delivered surface, and runs a fluid simulation on that anatomy at the test resolution.

/** A virtual patient's aortic root surface and landmark points, delivered as staff deliver a CT patient's. */
function modelsZip(): Promise<Buffer> {
  const meshes = buildPatientMeshes(generatePatient(20261128, 5), 'end-diastole');
  const landmarks = (['aortic_annulus', 'ascending_aorta', 'lvot', 'sinotubular_junction'] as const).map((name) => ({
    name,
    position: landmarkOf(meshes, name).position,
  }));
  return zipOf([
    ['P1/aortic-root_end-diastole.stl', writeBinaryStl(organMesh(meshes, 'aortic_root'))],
    ['P1/landmarks.json', new TextEncoder().encode(JSON.stringify({ landmarks }))],
  ]);
}

test('a room on a patient of your own imaging: project figures, patient page, room scene, a simulation', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const datasetName = `Own CT ${stamp}`;
  const email = await signUp(page, '/help', 'Ida Imaging');
  const deviceId = await createWorkspace(page, `Imaging R ${stamp}`);
  await allowTestResolution(deviceId);
  // The dataset of the project, re-checked by the server; then the staff's delivery makes it ready.
  const projectId = await projectWithImagingDataset(page, {
    deviceId,
    projectName: `Own anatomy ${stamp % 1e6}`,
    name: datasetName,
    email,
    tool: 'imaging-room journey',
    models: await modelsZip(),
  });

  // The project's figures list the patient under its imaging cohort, labelled as the user's own data.
  await page.goto(`/projects/view/stats?project=${projectId}&device=${deviceId}`);
  const imaging = page.getByRole('region', { name: 'Imaging cohorts' });
  await expect(imaging.getByText('Your imaging data', { exact: true })).toBeVisible();
  await imaging.getByRole('link', { name: 'P1', exact: true }).click();

  // The patient page: the delivered surface in 3D and what is measured on it; nothing synthetic about it.
  await expect(page.getByRole('heading', { name: 'Patient P1' })).toBeVisible();
  await expect(page.getByText('Your imaging data', { exact: true })).toBeVisible();
  await expect(page.getByText('Synthetic')).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Measured on the models' })).toContainText(
    'Aortic root volume (end-diastole)',
  );
  await expect(page.getByText(`Your imaging data: ${datasetName}, modelled by our staff`)).toBeVisible();
  await expect(page.getByText('Showing End-diastole')).toBeVisible({ timeout: 30_000 });

  // A room on it: its scene loads the delivered surface.
  await page.getByRole('button', { name: 'New room on this patient' }).click();
  await expect(page).toHaveURL(/\/projects\/room\?project=[\w-]+&room=[\w-]+/);
  await expect(page.getByRole('link', { name: `Patient P1 of ${datasetName}` })).toBeVisible();
  await expect(page.getByText('Synthetic')).toHaveCount(0);
  const scene = page.getByTestId('room-scene');
  await expect(scene).toHaveAttribute('data-shown-phase', 'end-diastole', { timeout: 60_000 });

  // A fluid simulation on the delivered anatomy: the region drawn, the test resolution run to completed.
  await expect(page.getByRole('button', { name: 'Fluid' })).toHaveAttribute('aria-pressed', 'true');
  await expect(scene).toHaveAttribute('data-simulated-region', 'shown', { timeout: 60_000 });
  await page.getByRole('radio', { name: /^Test \(seconds\)/ }).check();
  await expect(page.getByTestId('simulation-estimate')).toContainText('particles', { timeout: 30_000 });
  await page.getByRole('textbox', { name: 'Name (optional)' }).fill('Own anatomy flow');
  await page.getByRole('button', { name: 'Start simulation' }).click();
  const run = page
    .getByRole('region', { name: 'Simulations of this room' })
    .getByTestId('simulation-row')
    .filter({ hasText: 'Own anatomy flow' });
  await expect(run).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });
});
