import type { Analysis, AnalysisList, CohortParameterTable } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertModellingDataset, insertReadyDataset } from '../../../test/factories/imaging-rows';
import { insertProject } from '../../../test/factories/project-rows';
import { patchAnalysis } from '../../../test/fixtures/analysis.fixtures';
import { createWorkspace, errorOf, json, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { pdfToText } from '../../../../../test/helpers/pdf-text';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';

// Population analysis on the delivered patients of an imaging cohort (issue 19 item 7): the cohort's parameter
// table is what was measured on the delivered surfaces (LV volumes at both phases → EDV, ESV, stroke volume, EF),
// an analysis is made, changed and reported on like a virtual cohort's, and it says the patients are the user's own
// imaging data, never synthetic.

let server: TestServer;
let admin: Person;
let deviceId = '';
let projectId = '';
let otherProjectId = '';
let readyId = '';
let modellingId = '';
let elsewhereId = '';

/** Patient i (1…24): EDV 100 + 3i mL, ESV 40 + i mL; an aortic root for all but P05 (so it is no column). */
const edv = (i: number) => 100 + 3 * i;
const esv = (i: number) => 40 + i;
const patients = Array.from({ length: 24 }, (_, k) => {
  const i = k + 1;
  const models = [
    { organ: 'lv-blood-pool', phase: 'end-diastole', volume: edv(i) * 1000 },
    { organ: 'lv-blood-pool', phase: 'end-systole', volume: esv(i) * 1000 },
  ];
  if (i !== 5) models.push({ organ: 'aortic-root', phase: 'end-diastole', volume: (20 + (i % 5)) * 1000 });
  return { patient: `P${String(i).padStart(2, '0')}`, models };
});

const analysesOf = (project: string) => `/api/devices/${deviceId}/projects/${project}/analyses`;
const tableOf = (project: string, dataset: string) =>
  `/api/devices/${deviceId}/projects/${project}/imaging-cohorts/${dataset}/parameters`;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server);
  deviceId = (await createWorkspace(admin)).deviceId;
  projectId = await insertProject(server, { deviceId, team: [admin.id] });
  otherProjectId = await insertProject(server, { deviceId, team: [admin.id] });
  readyId = await insertReadyDataset(server, { deviceId, projectId, uploadedBy: admin.id, name: 'Our CTs' }, patients);
  modellingId = await insertModellingDataset(server, { deviceId, projectId, uploadedBy: admin.id });
  elsewhereId = await insertReadyDataset(
    server,
    { deviceId, projectId: otherProjectId, uploadedBy: admin.id },
    patients,
  );
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('population analysis on imaging patients', () => {
  it('reads the measured parameters every patient has, as a table that is not synthetic', async () => {
    const response = await admin.browser.get(tableOf(projectId, readyId));
    expect(response.status).toBe(200);
    const table = await json<CohortParameterTable>(response);
    expect(table).toMatchObject({ cohortId: readyId, synthetic: false });
    expect(table.patients).toEqual(patients.map((p) => p.patient));
    expect(new Set(table.sex)).toEqual(new Set(['']));
    expect(new Set(table.age)).toEqual(new Set([null]));
    const keys = table.parameters.map((p) => p.key);
    expect(keys).toEqual([
      'volume:lv_blood_pool:end-diastole',
      'volume:lv_blood_pool:end-systole',
      'lvEdv_mL',
      'lvEsv_mL',
      'strokeVolume_mL',
      'lvef_pct',
    ]);
    const column = (key: string) => table.values[keys.indexOf(key)]!;
    patients.forEach((_, k) => {
      const i = k + 1;
      expect(column('lvEdv_mL')[k]).toBeCloseTo(edv(i), 9);
      expect(column('strokeVolume_mL')[k]).toBeCloseTo(edv(i) - esv(i), 9);
      expect(column('lvef_pct')[k]).toBeCloseTo((100 * (edv(i) - esv(i))) / edv(i), 9);
    });
    expect((await admin.browser.get(tableOf(projectId, modellingId))).status).toBe(409);
    expect((await admin.browser.get(tableOf(projectId, elsewhereId))).status).toBe(404);
  });

  it('makes, changes and reports an analysis of the imaging cohort, named as own imaging data', async () => {
    const response = await admin.browser.postJson(analysesOf(projectId), {
      cohortId: readyId,
      name: 'LV function',
      parameters: ['lvEdv_mL', 'strokeVolume_mL', 'lvef_pct'],
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const analysis = await json<Analysis>(response);
    expect(analysis.cohort).toEqual({ id: readyId, name: 'Our CTs', size: 24, status: 'ready', source: 'imaging' });
    const list = await json<AnalysisList>(await admin.browser.get(analysesOf(projectId)));
    expect(list.items.map((item) => [item.id, item.cohort.source])).toEqual([[analysis.id, 'imaging']]);

    // Its results were kept with the event (issue 20), computed on the delivered patients.
    const { rows } = await server.context.db.executeSql(
      "select content from result_snapshots where object_type = 'analysis' and object_id = $1",
      [analysis.id],
    );
    expect(rows).toHaveLength(1);
    const content = (rows[0] as { content: { refusal: string | null; cohort: { modelVersion: string } } }).content;
    expect(content.refusal).toBeNull();
    expect(content.cohort.modelVersion).toBe('none (own imaging data)');

    const changed = await patchAnalysis(
      admin.browser,
      `${analysesOf(projectId)}/${analysis.id}`,
      { excluded: ['P03'], reason: 'Motion artefacts in the systolic phase' },
      analysis.revision,
    );
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await json<Analysis>(changed)).toMatchObject({ excluded: ['P03'], revision: 2 });

    const report = await admin.browser.postJson(`${analysesOf(projectId)}/${analysis.id}/report`, {});
    expect(report.status, await report.clone().text()).toBe(200);
    const text = pdfToText(new Uint8Array(await report.arrayBuffer()));
    expect(text).toContain('Your own imaging data');
    expect(text).not.toContain('Synthetic virtual patients');
    expect(text).toContain('Our CTs');
  }, 120_000);

  it('refuses what the imaging cohort does not have, a cohort still modelling, and another project’s', async () => {
    const create = (body: Record<string, unknown>) =>
      admin.browser.postJson(analysesOf(projectId), { parameters: ['lvEdv_mL'], ...body });
    const catalogue = await create({ cohortId: readyId, parameters: ['lvEdv_mL', 'height_cm'] });
    expect(catalogue.status).toBe(422);
    expect(await errorOf(catalogue)).toMatchObject({ code: 'unknown_parameter' });
    // Measured on some patients only: not a column, so not a parameter.
    const partial = await create({ cohortId: readyId, parameters: ['volume:aortic_root:end-diastole'] });
    expect(partial.status).toBe(422);
    const stranger = await create({ cohortId: readyId, excluded: ['SYN-000001'], reason: 'why not' });
    expect(stranger.status).toBe(422);
    expect(await errorOf(stranger)).toMatchObject({ code: 'unknown_patient' });
    const modelling = await create({ cohortId: modellingId });
    expect(modelling.status).toBe(409);
    expect(await errorOf(modelling)).toMatchObject({ code: 'cohort_not_ready' });
    const elsewhere = await create({ cohortId: elsewhereId });
    expect(elsewhere.status).toBe(422);
    expect(await errorOf(elsewhere)).toMatchObject({ code: 'cohort_not_in_project' });
    const { rows } = await server.context.db.executeSql(
      'select count(*)::int as n from analyses where imaging_dataset_id is not null and project_id = $1',
      [projectId],
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});
