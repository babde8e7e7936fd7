import { createHash } from 'node:crypto';
import { buildPatientMeshes, generatePatient, landmarkOf, organMesh } from '@insilico/anatomy';
import type { Room, TrialDetail, TrialOutcomeColumns, TrialReport, TrialSetup } from '@insilico/contracts';
import { readCsv } from '@insilico/contracts/csv';
import { writeBinaryStl } from '@insilico/mesh';
import { ringDeviceMesh } from '@insilico/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertModellingDataset } from '../../../test/factories/imaging-rows';
import { insertProject } from '../../../test/factories/project-rows';
import { insertVersionWithModel } from '../../../test/factories/room-rows';
import { deliverAndWait } from '../../../test/fixtures/imaging-delivery.fixtures';
import { projectWorld } from '../../../test/fixtures/project-world';
import { waitForReport, waitForTrial } from '../../../test/fixtures/trial.fixtures';
import { errorOf, json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { eventsOf } from '../../../test/helpers/domain-events';
import type { TestServer } from '../../../test/helpers/test-server';
import { zipOf } from '../../../../../test/helpers/imaging-zip';
import { pdfPhrases } from '../../../../../test/helpers/pdf-text';
import { trials } from '../../db/schema';

/**
 * Trials on an imaging cohort's delivered patients (issue 19 item 7 with issue 17 item 1): the trial names the
 * dataset as its cohort (`cohortId`), each delivered patient is placed by the rule on its own aortic root surface at
 * its first delivered phase and run in a room on that imaging patient; a patient whose delivery lacks what the rule
 * needs (a landmark, the aortic root surface) is listed as failed with the reason, in words. Outcomes, CSV, the
 * population columns and the PDF report name the user's own imaging data, never "synthetic". A re-run keeps the
 * dataset, and its report draws the comparison with the earlier trial.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
let deviceId = '';
let projectId = '';
let datasetId = '';
let modellingId = '';
let elsewhereId = '';
let versionId = '';
let finishedTrial: TrialDetail | undefined;

const projectPath = () => `/api/devices/${deviceId}/projects/${projectId}`;
const trialsPath = () => `${projectPath()}/trials`;
const body = (over: Record<string, unknown> = {}) => ({
  name: 'Own CT trial',
  cohortId: datasetId,
  versionId,
  kind: 'solid',
  resolution: 'test',
  // Crimped to 0.6 as on an SSM's shapes (trials-ssm.api.test.ts): the ring clears every root at once.
  parameters: { crimpRatio: 0.6 },
  placement: { landmark: 'aortic_annulus', depth_mm: 2 },
  ...over,
});
const trialCount = async () => (await server.context.db.orm.select({ id: trials.id }).from(trials)).length;

/**
 * Four delivered patients: P1 and P2 with what a trial needs (two virtual patients' aortic roots at end-diastole and
 * their landmarks), P3 without the ascending aorta landmark, P4 without an aortic root surface (its LV pool only).
 */
async function models(): Promise<Uint8Array> {
  const entries: [string, Uint8Array][] = [];
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  for (const [id, k] of [
    ['P1', 1],
    ['P2', 2],
    ['P3', 3],
    ['P4', 4],
  ] as const) {
    const meshes = buildPatientMeshes(generatePatient(20261128, k), 'end-diastole');
    const landmark = (name: Parameters<typeof landmarkOf>[1]) => ({
      name,
      position: landmarkOf(meshes, name).position,
    });
    const landmarks = [landmark('aortic_annulus'), landmark('ascending_aorta'), landmark('lvot')];
    if (id === 'P4')
      entries.push([`${id}/lv-blood-pool_end-diastole.stl`, writeBinaryStl(organMesh(meshes, 'lv_blood_pool'))]);
    else entries.push([`${id}/aortic-root_end-diastole.stl`, writeBinaryStl(organMesh(meshes, 'aortic_root'))]);
    entries.push([
      `${id}/landmarks.json`,
      json({ landmarks: id === 'P3' ? landmarks.filter((l) => l.name !== 'ascending_aorta') : landmarks }),
    ]);
  }
  return zipOf(entries);
}

beforeAll(async () => {
  const world = await projectWorld({
    people: { member: 'member', guest: 'guest' },
    project: { team: ['admin', 'member', 'guest'] },
  });
  ({ server, admin, deviceId, projectId } = world);
  ({ member, guest } = world.people);
  datasetId = await insertModellingDataset(server, { deviceId, projectId, uploadedBy: admin.id, name: 'Own CT' });
  modellingId = await insertModellingDataset(server, { deviceId, projectId, uploadedBy: admin.id, name: 'Later CT' });
  // Another project of the workspace, with its own dataset (waiting for its models: not this project's either way).
  const otherProjectId = await insertProject(server, { deviceId, team: [admin.id] });
  elsewhereId = await insertModellingDataset(server, { deviceId, projectId: otherProjectId, uploadedBy: admin.id });
  await server.context.supportStaff.set(admin.account.email, true);
  const { delivery } = await deliverAndWait(admin.browser, datasetId, await models());
  expect(delivery.findings).toEqual([]);
  expect(delivery.status).toBe('accepted');
  ({ versionId } = await insertVersionWithModel(server, deviceId, {
    name: 'Ring valve',
    status: 'ready',
    projectId,
    stl: writeBinaryStl(ringDeviceMesh(8, 1.5)),
  }));
  await server.context.simulations.setTestResolution(deviceId, true);
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

describe('setting up a trial on an imaging cohort', () => {
  it('offers the project’s ready imaging cohorts with their delivered patients, marked as own imaging data', async () => {
    const setup = await json<TrialSetup>(await guest.browser.get(`${trialsPath()}/setup`));
    expect(setup.cohorts).toEqual([{ id: datasetId, name: 'Own CT', patients: 4, source: 'imaging' }]);
  });

  it('refuses a cohort still being modelled, another project’s dataset and a guest; nothing stored', async () => {
    expect(await errorOf(await member.browser.postJson(trialsPath(), body({ cohortId: modellingId })))).toMatchObject({
      status: 409,
      code: 'imaging_cohort_not_ready',
    });
    expect(await errorOf(await member.browser.postJson(trialsPath(), body({ cohortId: elsewhereId })))).toMatchObject({
      status: 422,
      code: 'cohort_not_in_project',
      message: 'Choose one of the project’s cohorts.',
    });
    expect((await guest.browser.postJson(trialsPath(), body())).status).toBe(403);
    expect(await trialCount()).toBe(0);
  });
});

describe('a trial on the delivered patients', () => {
  it('runs the patients the rule places and lists the others with the reason', async () => {
    const created = await member.browser.postJson(trialsPath(), body());
    expect(created.status, await created.clone().text()).toBe(201);
    const trial = await json<TrialDetail>(created);
    expect(trial.cohort).toEqual({ id: datasetId, name: 'Own CT', source: 'imaging' });
    expect(trial.ssm).toBeNull();
    expect(trial.patients.map((p) => p.patientId)).toEqual(['P1', 'P2', 'P3', 'P4']);
    expect(await eventsOf(server, 'trial', trial.id)).toMatchObject([
      { action: 'trial.started', after: { name: 'Own CT trial', imagingDatasetId: datasetId, patients: 4 } },
    ]);
    const finished = await waitForTrial(member.browser, `${trialsPath()}/${trial.id}`, (t) => t.status !== 'running');
    expect(finished.counts, JSON.stringify(finished.patients.map((p) => p.error))).toMatchObject({
      total: 4,
      done: 2,
      failed: 2,
    });
    const [p1, p2, p3, p4] = finished.patients;
    expect(p3).toMatchObject({
      status: 'failed',
      stage: 'placement',
      roomId: null,
      simulationId: null,
      error:
        "Patient P3 has no ascending aorta landmark: a simulation places its inlet, outlet and the root's axis from the aortic annulus and the ascending aorta.",
    });
    expect(p4).toMatchObject({
      status: 'failed',
      stage: 'placement',
      roomId: null,
      error:
        'Patient P4 has no aortic root surface at end-diastole: simulations need the closed surface of the LVOT, aortic root and ascending aorta (delivered as aortic-root_end-diastole.stl).',
    });
    for (const p of [p1!, p2!]) {
      expect(p.simulationStatus).toBe('completed');
      expect(p.outcomes!.peak_von_mises_stress).toBeGreaterThan(0);
      // The trial's room is on the imaging patient, at its delivered phase, with the device placed by the rule.
      const room = await json<Room>(await guest.browser.get(`${projectPath()}/rooms/${p.roomId}`));
      expect(room.subject).toEqual({ kind: 'imaging', datasetId, datasetName: 'Own CT', patientId: p.patientId });
      expect(room.name).toBe(`Own CT trial – ${p.patientId}`);
      const scene = await json<{ view: { phase: string }; placements: unknown[] }>(
        await guest.browser.get(`${projectPath()}/rooms/${p.roomId}/scene`),
      );
      expect(scene.view.phase).toBe('end-diastole');
      expect(scene.placements).toHaveLength(1);
    }
    const csv = readCsv(await (await guest.browser.get(`${trialsPath()}/${trial.id}/outcomes.csv`)).text());
    expect(csv.slice(1).map((row) => row[0])).toEqual(['P1', 'P2', 'P3', 'P4']);
    finishedTrial = finished;
  }, 400_000);

  it('gives the outcomes as parameters of the imaging cohort (its dataset’s id), in its patients’ order', async () => {
    const trial = finishedTrial!;
    const columns = await json<TrialOutcomeColumns>(await guest.browser.get(`${trialsPath()}/${trial.id}/outcomes`));
    expect(columns.cohortId).toBe(datasetId);
    expect(columns.ids).toEqual(['P1', 'P2', 'P3', 'P4']);
    expect(columns.instances).toBeNull();
    const j = columns.outcomes.findIndex((o) => o.key === 'peak_von_mises_stress');
    expect(columns.values[j]).toEqual([
      trial.patients[0]!.outcomes!.peak_von_mises_stress,
      trial.patients[1]!.outcomes!.peak_von_mises_stress,
      null,
      null,
    ]);
    expect(columns.runs.map((r) => r !== null)).toEqual([true, true, false, false]);
  });

  it('makes the PDF report naming the user’s own imaging data, never synthetic patients', async () => {
    const trial = finishedTrial!;
    const reports = `${trialsPath()}/${trial.id}/reports`;
    const requested = await guest.browser.postJson(reports, {});
    expect(requested.status).toBe(202);
    const ready = await waitForReport(member.browser, reports, (await json<TrialReport>(requested)).id);
    expect(ready?.status, ready?.error ?? '').toBe('ready');
    const bytes = Buffer.from(await (await member.browser.get(ready!.url!)).arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(ready!.sha256);
    const text = pdfPhrases(bytes);
    expect(text).toContain('Your own imaging data (Own CT)');
    expect(text).toContain(`your own imaging data (dataset ${datasetId}): 4 de-identified patients`);
    expect(text).toContain('Patients: 4: 2 done, 2 failed');
    expect(text).toContain('P3: failed (placement: Patient P3 has no ascending aorta landmark');
    expect(text).not.toMatch(/synthetic/i);
  }, 180_000);
  it('re-runs on the same dataset (device CI keeps the subject) and compares the two', async () => {
    const trial = finishedTrial!;
    const rerun = await member.browser.postJson(`${trialsPath()}/${trial.id}/rerun`, {
      versionId,
      name: 'Own CT trial again',
    });
    expect(rerun.status, await rerun.clone().text()).toBe(201);
    const again = await json<TrialDetail>(rerun);
    expect(again.cohort).toEqual({ id: datasetId, name: 'Own CT', source: 'imaging' });
    expect(again.basedOnTrialId).toBe(trial.id);
    const finished = await waitForTrial(member.browser, `${trialsPath()}/${again.id}`, (t) => t.status !== 'running');
    expect(finished.counts).toMatchObject({ total: 4, done: 2, failed: 2 });
    // The event commits just after the last patient's row: waited for.
    const finishedEvent = async () =>
      (await eventsOf(server, 'trial', again.id)).find((e) => e.action === 'trial.finished');
    const deadline = Date.now() + 60_000;
    while (!(await finishedEvent()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect((await finishedEvent())?.after).toMatchObject({ comparison: { basedOn: { trialId: trial.id } } });
    // The re-run's report draws the comparison with the earlier trial (issue 17 item 4): the two placed patients.
    const reports = `${trialsPath()}/${again.id}/reports`;
    const requested = await member.browser.postJson(reports, {});
    expect(requested.status).toBe(202);
    const ready = await waitForReport(member.browser, reports, (await json<TrialReport>(requested)).id);
    expect(ready?.status, ready?.error ?? '').toBe('ready');
    const text = pdfPhrases(Buffer.from(await (await member.browser.get(ready!.url!)).arrayBuffer()));
    expect(text).toContain('Comparison with Own CT trial (Ring valve)');
    expect(text).toContain('Peak von Mises stress (MPa) 2 patients with values on both; mean difference');
  }, 500_000);
});
