import {
  buildPatientMeshes,
  defaultPopulation,
  patientGlb,
  togglePhase,
  toMeshPhase,
  cineFrames,
  CINE_FRAME_COUNT,
  type SyntheticPatient,
} from '@insilico/anatomy';
import type { Cohort, CohortPatient, CohortPatientPage } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { criteriaWith, orderCohort, settled } from '../../../test/fixtures/cohort.fixtures';

/**
 * Stored patient records (issue 14 item 12): a cohort reads from what was stored when it was ordered, never from
 * the generator the server has now.
 */

let server: TestServer;
let admin: Person;
let deviceId = '';

beforeAll(async () => {
  ({ server, admin, deviceId } = await projectWorld());
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const sql = (text: string, values: unknown[]) => server.context.db.executeSql(text, values);

async function readyCohort(name: string, size = 20): Promise<Cohort> {
  // Cine patients only, so every patient has frames that are built on first view.
  const ordered = await orderCohort(admin.browser, deviceId, {
    name,
    size,
    criteria: criteriaWith((c) => togglePhase(c, 'cine_ct')),
  });
  const ready = await settled(admin.browser, deviceId, ordered.id);
  expect(ready.status).toBe('ready');
  return ready;
}

/** Everything a cohort shows, as the bytes the API answers (the GLB as hex, landmarks of a cached phase). */
async function everythingRead(cohortId: string, patientId: string): Promise<Record<string, string>> {
  const base = `/api/devices/${deviceId}/cohorts/${cohortId}`;
  const paths = [
    '/patients?pageSize=100',
    '/patients?pageSize=10&page=2&sort=age&order=desc',
    '/patients?sort=bmi&order=asc&pageSize=25',
    '/patients?search=female&pageSize=25',
    '/patients.csv',
    '/parameters',
    `/patients/${patientId}`,
    `/patients/${patientId}/meshes/end-diastole/landmarks`,
    `/patients/${patientId}/meshes/end-systole`,
  ];
  const answers: Record<string, string> = {};
  for (const path of paths) {
    const response = await admin.browser.get(`${base}${path}`);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    answers[path] = path.includes('/meshes/end-systole')
      ? Buffer.from(await response.arrayBuffer()).toString('hex')
      : await response.text();
  }
  return answers;
}

const firstPatientOf = async (cohortId: string): Promise<string> =>
  (
    await json<CohortPatientPage>(
      await admin.browser.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients?pageSize=10`),
    )
  ).items[0]!.id;

describe('a cohort reads what was stored at order time', () => {
  it('answers the same bytes (patients, CSV, parameter table, patient page, meshes) after a generator change', async () => {
    const cohort = await readyCohort('Evidence');
    const patientId = await firstPatientOf(cohort.id);
    const before = await everythingRead(cohort.id, patientId);

    // The generator moved on: the cohort's population model and seed are no longer what this server generates
    // (a server that regenerated patients answered 409 here, or other patients).
    await sql(`update cohorts set model_version = 'anatomy-population-0', population_seed = 7 where id = $1`, [
      cohort.id,
    ]);
    const after = await everythingRead(cohort.id, patientId);
    for (const path of Object.keys(before)) expect({ path, bytes: after[path] }).toEqual({ path, bytes: before[path] });
    const read = await json<Cohort>(await admin.browser.get(`/api/devices/${deviceId}/cohorts/${cohort.id}`));
    expect(read.modelVersion).toBe('anatomy-population-0');
  }, 120_000);

  it('reads every parameter from the stored record, cine frames built on first view included', async () => {
    const cohort = await readyCohort('Stored record');
    const patientId = await firstPatientOf(cohort.id);
    // Change the stored record (as a different generator would have made it): every read follows the store.
    await sql(
      `update cohort_patients
          set record = jsonb_set(jsonb_set(record, '{body,height_cm}', '201'), '{cardiac,lvEdv_mL}', '333')
        where cohort_id = $1 and patient_id = $2`,
      [cohort.id, patientId],
    );
    const base = `/api/devices/${deviceId}/cohorts/${cohort.id}`;
    const patient = await json<CohortPatient>(await admin.browser.get(`${base}/patients/${patientId}`));
    expect(patient.height_cm).toBe(201);
    expect(patient.parameters.find((p) => p.key === 'lvEdv_mL')?.value).toBe(333);
    const csv = (await (await admin.browser.get(`${base}/patients.csv`)).text()).split('\r\n');
    const header = csv[0]!.split(',');
    const row = csv.find((line) => line.startsWith(`${patientId},`))!.split(',');
    expect(row[header.indexOf('Height (cm)')]).toBe('201');
    expect(row[header.indexOf('LV end-diastolic volume (mL)')]).toBe('333');

    // A cine frame is built now, on first view, from the stored record and not from the generator.
    const generated = defaultPopulation().patients.find((p) => p.id === patientId)!;
    const stored: SyntheticPatient = {
      ...generated,
      body: { ...generated.body, height_cm: 201 },
      cardiac: { ...generated.cardiac, lvEdv_mL: 333 },
    };
    const frame = cineFrames(CINE_FRAME_COUNT)[4]!;
    const glb = Buffer.from(
      await (await admin.browser.get(`${base}/patients/${patientId}/meshes/cine-05of12`)).arrayBuffer(),
    );
    expect(glb.equals(Buffer.from(patientGlb(buildPatientMeshes(stored, frame))))).toBe(true);
    expect(glb.equals(Buffer.from(patientGlb(buildPatientMeshes(generated, frame))))).toBe(false);
    // The meshes cached at order time stay as they were built.
    const cached = Buffer.from(
      await (await admin.browser.get(`${base}/patients/${patientId}/meshes/end-diastole`)).arrayBuffer(),
    );
    expect(cached.equals(Buffer.from(patientGlb(buildPatientMeshes(generated, toMeshPhase('end-diastole')))))).toBe(
      true,
    );
  }, 120_000);

  it('answers 409 "cannot be read" for a cohort whose patients were never stored and whose model is gone', async () => {
    const cohort = await readyCohort('Lost model', 5);
    const patientId = await firstPatientOf(cohort.id);
    await sql(`update cohorts set model_version = 'anatomy-population-0' where id = $1`, [cohort.id]);
    await sql(`update cohort_patients set record = null where cohort_id = $1`, [cohort.id]);
    const base = `/api/devices/${deviceId}/cohorts/${cohort.id}`;
    for (const path of ['/patients', '/patients.csv', '/parameters', `/patients/${patientId}`]) {
      const response = await admin.browser.get(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 409 });
      const error = await errorOf(response);
      expect(error.code).toBe('cohort_unreadable');
      expect(error.message).toBe(
        'The patients of cohort Lost model cannot be read: they were drawn from population model anatomy-population-0, ' +
          'which this server can no longer produce, and were not stored when the cohort was ordered.',
      );
    }
    // The cohort itself is still listed and shown.
    expect((await admin.browser.get(base)).status).toBe(200);
  }, 120_000);
});
