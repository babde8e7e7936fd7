import type { Page } from '@playwright/test';
import {
  deidentificationManifest,
  deidentifiedCt,
  manifestEntry,
  zipOf as zipBytes,
} from '../../../test/helpers/imaging-zip';
import { expect } from './csp';
import { api, operatorRequest, tusUpload } from './workspace-helpers';

/** A zip of the entries (the tests' one builder, test/helpers/imaging-zip.ts), as a buffer Playwright can send. */
export async function zipOf(entries: readonly (readonly [string, Uint8Array])[]): Promise<Buffer> {
  return Buffer.from(await zipBytes(entries));
}

/** One de-identified CT file and the manifest the browser would write beside it (`tool` names the journey). */
export async function deidentifiedDatasetZip(tool: string): Promise<Buffer> {
  const ct = await deidentifiedCt({
    name: 'ROOM^PATIENT',
    id: 'MRN-R1',
    birthDate: '19580303',
    studyUid: '1.2.826.0.1.3680043.14.1',
    studyDate: '20240404',
    seriesUid: '1.2.826.0.1.3680043.14.1.1',
    sopUid: '1.2.826.0.1.3680043.14.1.1.1',
  });
  return zipOf([['P1/a.dcm', ct], manifestEntry(deidentificationManifest(tool))]);
}

/**
 * A new project of the workspace (`projectName`) with an imaging dataset made ready through the API (the upload
 * itself is imaging-cohort.spec's journey): uploaded by tus, re-checked by the server, then `models` delivered by
 * the signed-in user made support staff (`email`) and checked by the job. Answers the project's id.
 */
export async function projectWithImagingDataset(
  page: Page,
  seed: { deviceId: string; projectName: string; name: string; email: string; tool: string; models: Buffer },
): Promise<string> {
  const { deviceId } = seed;
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: seed.projectName,
    developmentStage: 'concept_and_design_feasibility',
  });
  const projectId = project.id as string;
  const uploadId = await tusUpload(page, deviceId, await deidentifiedDatasetZip(seed.tool), {
    filename: 'anonymized-imaging-dataset.zip',
    purpose: 'imaging_dataset',
  });
  const dataset = await api(page, 'POST', `/api/devices/${deviceId}/imaging-datasets`, {
    uploadId,
    name: seed.name,
    projectId,
  });
  const datasetId = String(dataset.id);
  const datasetStatus = async () =>
    (
      (await (await page.request.get(`/api/devices/${deviceId}/imaging-datasets/${datasetId}`)).json()) as {
        status: string;
      }
    ).status;
  await expect.poll(datasetStatus, { timeout: 60_000 }).toBe('modelling');
  const staff = await operatorRequest('POST', '/api/operator/support-staff', { email: seed.email, isSupport: true });
  expect(staff.status).toBe(200);
  const delivered = await page.request.put(`/api/support/imaging-datasets/${datasetId}/models`, {
    headers: { Origin: new URL(page.url()).origin, 'Content-Type': 'application/zip' },
    data: seed.models,
  });
  // 202: the models are checked by a job; the dataset becomes ready when they pass.
  expect(delivered.status(), await delivered.text()).toBe(202);
  await expect.poll(datasetStatus, { timeout: 60_000 }).toBe('ready');
  return projectId;
}
