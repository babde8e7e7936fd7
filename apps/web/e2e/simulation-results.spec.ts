import { readFile } from 'node:fs/promises';
import type { Download, Locator, Page } from '@playwright/test';
import { orderReadyCohort } from './cohort-helpers';
import { allowTestResolution, roomOnFirstPatient } from './simulation-helpers';
import { api, createWorkspace, signUp } from './workspace-helpers';
import { expect, test } from './csp';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). A member makes a small particle simulation through the
// API at the 'test' resolution (3 ms of flow, seconds; the operator turns it on for this workspace), then on its results page:
// picks two particles and sees their lines with the average, switches the histogram card to Range and sees the
// heatmap, downloads the CSV and the VTP and checks their content, and takes a screenshot into the gallery.

interface Manifest {
  timesteps: { time: number; particleCounts?: Record<string, number> }[];
  objects: { name: string; particleCount: number }[];
}

async function text(download: Download): Promise<string> {
  return readFile(await download.path(), 'utf8');
}

/** A card of the page by its heading. */
function card(page: Page, title: string): Locator {
  return page.locator('.MuiCard-root').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

test('the results of a simulation: particles, distribution, downloads, screenshot', async ({ page }) => {
  test.setTimeout(300_000);
  await signUp(page, '/', 'Sami Results');
  await expect(page).toHaveURL(/\/onboarding\/body-part$/);
  const deviceId = await createWorkspace(page, `Valve S ${Date.now()}`);
  await allowTestResolution(deviceId);
  const cohortId = await orderReadyCohort(page, deviceId, { name: `Results ${Date.now()}`, size: 5 });
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name: `Results ${Date.now() % 1e6}`,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: [cohortId],
    versionIds: [],
    teamUserIds: [],
  });
  const projectId = project.id as string;
  const base = `/api/devices/${deviceId}/projects/${projectId}`;
  const roomId = await roomOnFirstPatient(page, deviceId, projectId, cohortId, `Results room ${Date.now() % 1e5}`);
  const simulation = await api(page, 'POST', `${base}/rooms/${roomId}/simulations`, {
    kind: 'particle',
    resolution: 'test',
    name: 'Debris',
    parameters: { particleCount: 8 },
  });
  const simulationId = simulation.id as string;
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`${base}/simulations/${simulationId}`)).json()) as { status: string }).status,
      { timeout: 120_000, intervals: [500] },
    )
    .toBe('completed');
  const { manifest } = (await (await page.request.get(`${base}/simulations/${simulationId}/results`)).json()) as {
    manifest: Manifest;
  };
  const last = manifest.timesteps.length - 1;
  const particleCount = (object: string, t: number) =>
    manifest.timesteps[t]!.particleCounts?.[object] ?? manifest.objects.find((o) => o.name === object)!.particleCount;

  // The results page, as the simulation list and the notification link to it.
  await page.goto(`/projects/room/analyses?project=${projectId}&room=${roomId}&simulation=${simulationId}`);
  await expect(page.getByRole('heading', { name: 'Debris', level: 1 })).toBeVisible();
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
  const playback = page.getByRole('region', { name: '3D playback' });
  await expect(playback.getByText(`Timestep 1 of ${manifest.timesteps.length}`)).toBeVisible();
  await expect(playback.getByRole('figure', { name: /^Colour bar: Velocity \(m\/s\) from / })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Captured fraction over time' })).toBeVisible();

  // Two particles of the tracked debris: their lines and the average.
  const choose = page.getByRole('region', { name: 'Choose particles' });
  await choose.getByLabel('Object').click();
  await page.getByRole('option', { name: 'particles' }).click();
  await choose.getByRole('button', { name: 'Add particle' }).click();
  await choose.getByRole('spinbutton', { name: 'Particle' }).fill('3');
  await choose.getByRole('spinbutton', { name: 'Particle' }).press('Enter');
  await choose.getByRole('button', { name: 'Add particle' }).click();
  const lines = card(page, 'Particles over time');
  await expect(lines.getByTestId('particle-0')).toContainText('Particle 0');
  await expect(lines.getByTestId('particle-3')).toContainText('Particle 3');
  await expect(lines.locator('svg text', { hasText: 'average' })).toHaveCount(1, { timeout: 20_000 });
  await expect(lines.locator('svg text', { hasText: 'Velocity (m/s)' })).toHaveCount(1);

  // The particle's own CSV: every output with its unit, a row per saved timestep.
  const particleDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV of Particle 3' }).click();
  const particleRows = (await text(await particleDownload)).trim().split('\n');
  expect(particleRows[0]).toBe(
    'Timestep,Time (s),Position x (mm),Position y (mm),Position z (mm),Velocity (m/s),Particle Size (mm),Captured',
  );
  expect(particleRows).toHaveLength(manifest.timesteps.length + 1);

  // The distribution of the debris' velocity: a histogram of timestep 1, then the heatmap of a range.
  const distribution = card(page, 'Distribution');
  await distribution.getByLabel('Body type').click();
  await page.getByRole('option', { name: 'Particle' }).click();
  await distribution.getByRole('combobox', { name: 'Output' }).click();
  await page.getByRole('option', { name: 'Velocity' }).click();
  await expect(distribution.locator('svg text', { hasText: 'Frequency (particles)' })).toHaveCount(1, {
    timeout: 20_000,
  });
  await distribution.getByRole('button', { name: 'Range' }).click();
  await expect(distribution.getByRole('button', { name: 'Range' })).toHaveAttribute('aria-pressed', 'true');
  await expect(distribution.locator('svg image')).toHaveCount(1, { timeout: 20_000 });
  await expect(distribution.locator('svg text', { hasText: 'Timestep' })).not.toHaveCount(0);

  // Downloads of the last saved timestep: CSV with units in the headers, VTP that parses with one point a particle.
  const downloads = page.getByRole('region', { name: 'Downloads' });
  await downloads.getByLabel('Object').click();
  await page.getByRole('option', { name: 'particles' }).click();
  const csvDownload = page.waitForEvent('download');
  await downloads.getByRole('link', { name: 'CSV', exact: true }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe(`Debris-particles-timestep-${last + 1}.csv`);
  const rows = (await text(csv)).trim().split('\n');
  expect(rows[0]).toContain('(mm)');
  expect(rows[0]).toContain('Velocity');
  expect(rows[0]).toContain('(m/s)');
  expect(rows).toHaveLength(particleCount('particles', last) + 1);
  const vtpDownload = page.waitForEvent('download');
  await downloads.getByRole('link', { name: 'VTP for ParaView' }).click();
  const vtp = await text(await vtpDownload);
  const parsed = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      type: doc.documentElement.getAttribute('type'),
      points: Number(doc.getElementsByTagName('Piece')[0]?.getAttribute('NumberOfPoints')),
    };
  }, vtp);
  expect(parsed).toEqual({ error: 0, type: 'PolyData', points: particleCount('particles', last) });

  // A screenshot of the 3D view into the room's gallery, previewed in the shared modal.
  const gallery = page.getByRole('region', { name: 'Screenshots' });
  await expect(gallery.getByText(/No screenshot yet/)).toBeVisible();
  await playback.getByRole('button', { name: 'Screenshot' }).click();
  const shot = gallery.getByRole('button', { name: /^Preview the screenshot of / });
  await expect(shot).toHaveCount(1);
  await shot.click();
  const preview = page.getByRole('dialog');
  await expect(preview.getByRole('img', { name: /^Screenshot of the scene taken / })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
});
