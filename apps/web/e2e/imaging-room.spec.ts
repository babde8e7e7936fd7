import { buildPatientMeshes, generatePatient, landmarkOf, organMesh } from '@insilico/anatomy';
import { Pseudonymiser, bytesSource, deidentify, readDicom, writeDicomBytes } from '@insilico/dicom';
import { hostileCt, part10 } from '@insilico/dicom/testing';
import { writeBinaryStl } from '@insilico/mesh';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { expect, test } from './csp';
import { allowTestResolution } from './simulation-helpers';
import { api, createWorkspace, operatorRequest, signUp, tusUpload } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 19: a patient of the user's own imaging used like
// a built-in one. The de-identified dataset of a project is uploaded through the API (the upload itself is
// imaging-cohort.spec's journey), support staff deliver the patient's aortic root and landmarks, and the user finds
// the patient on the project's figures, sees it labelled as their own data in 3D, opens a room on it whose scene
// loads the delivered surface, and runs a fluid simulation on that anatomy at the test resolution.

async function zipOf(entries: [string, Uint8Array][]): Promise<Buffer> {
  const writer = new ZipWriter(new Uint8ArrayWriter());
  for (const [name, bytes] of entries) await writer.add(name, new Uint8ArrayReader(bytes));
  return Buffer.from(await writer.close());
}

/** One de-identified CT file and the manifest the browser would write beside it. */
async function datasetZip(): Promise<Buffer> {
  const source = bytesSource(
    part10(
      hostileCt({
        name: 'ROOM^PATIENT',
        id: 'MRN-R1',
        birthDate: '19580303',
        studyUid: '1.2.826.0.1.3680043.14.1',
        studyDate: '20240404',
        seriesUid: '1.2.826.0.1.3680043.14.1.1',
        sopUid: '1.2.826.0.1.3680043.14.1.1.1',
      }),
    ),
  );
  const pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret());
  const { file } = await deidentify(await readDicom(source), { pseudonymiser, modifiedDates: false });
  const manifest = {
    tool: 'imaging-room journey',
    profile: 'DICOM PS3.15 Annex E Basic Application Level Confidentiality Profile',
    options: [],
    createdAt: new Date().toISOString(),
    series: [],
    excludedSeries: 0,
    additionalFiles: [],
  };
  return zipOf([
    ['P1/a.dcm', await writeDicomBytes(file, source)],
    ['deidentification-manifest.json', new TextEncoder().encode(JSON.stringify(manifest))],
  ]);
}

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
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: `Own anatomy ${stamp % 1e6}`,
    developmentStage: 'concept_and_design_feasibility',
  });
  const projectId = project.id as string;

  // The dataset of the project, re-checked by the server; then the staff's delivery makes it ready.
  const uploadId = await tusUpload(page, deviceId, await datasetZip(), {
    filename: 'anonymized-imaging-dataset.zip',
    purpose: 'imaging_dataset',
  });
  const dataset = await api(page, 'POST', `/api/devices/${deviceId}/imaging-datasets`, {
    uploadId,
    name: datasetName,
    projectId,
  });
  const datasetStatus = async () =>
    (
      (await (await page.request.get(`/api/devices/${deviceId}/imaging-datasets/${String(dataset.id)}`)).json()) as {
        status: string;
      }
    ).status;
  await expect.poll(datasetStatus, { timeout: 60_000 }).toBe('modelling');
  expect((await operatorRequest('POST', '/api/operator/support-staff', { email, isSupport: true })).status).toBe(200);
  const delivered = await page.request.put(`/api/support/imaging-datasets/${String(dataset.id)}/models`, {
    headers: { Origin: new URL(page.url()).origin, 'Content-Type': 'application/zip' },
    data: await modelsZip(),
  });
  // 202: the models are checked by a job; the dataset becomes ready when they pass.
  expect(delivered.status(), await delivered.text()).toBe(202);
  await expect.poll(datasetStatus, { timeout: 60_000 }).toBe('ready');

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
