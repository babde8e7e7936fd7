import {
  analysisConflictMessage,
  reasonRequiredMessage,
  type Analysis,
  type AnalysisList,
  type CohortParameterTable,
  type CohortPatient,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { orderCohort, settled } from '../../../test/fixtures/cohort.fixtures';
import {
  createWorkspace,
  errorOf,
  json,
  principals,
  signedIn,
  type Person,
  type Principal,
} from '../../../test/fixtures/workspace.fixtures';
import { insertCohortInProgress, insertReadyVersion } from '../../../test/factories/analysis-rows';
import { insertProject } from '../../../test/factories/project-rows';
import { patchAnalysis } from '../../../test/fixtures/analysis.fixtures';
import { eventsOf } from '../../../test/helpers/domain-events';

/**
 * The analyses API (issue 6 item 5) and the cohort parameter table the page's worker reads: the permission
 * table for every principal on and off the project's team, validation, the revision rule, cohort checks.
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let admin: Person;
let deviceId = '';
let twentyId = '';
let fiveId = '';
let pendingCohortId = '';
let unattachedId = '';
let onProject = '';
let offProject = '';
let onAnalysis = '';
let offAnalysis = '';
let versionOnProject = '';
let outsider: Person;
let outsiderCohortId = '';

const parameters = ['aorticAnnulusPerimeter_mm', 'aorticAnnulusArea_mm2', 'height_cm'];
const analysesOf = (projectId: string) => `/api/devices/${deviceId}/projects/${projectId}/analyses`;
const analysisPath = (projectId: string, analysisId: string) => `${analysesOf(projectId)}/${analysisId}`;

async function created(browser: TestBrowser, projectId: string, body: Record<string, unknown>): Promise<Analysis> {
  const response = await browser.postJson(analysesOf(projectId), body);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return json<Analysis>(response);
}

beforeAll(async () => {
  // Both cohorts are ordered at once: the order job prepares their anatomy, which takes a while.
  const world = await projectWorld({
    // `teamOfOne` is somebody none of the table's principals is: the only one on the "off team" project.
    people: { ...principalPeople, teamOfOne: 'member' },
    cohorts: {
      twenty: { name: 'Twenty', size: 20, settleMs: 170_000 },
      five: { name: 'Five', size: 5, settleMs: 170_000 },
    },
  });
  ({ server, admin, deviceId } = world);
  const { teamOfOne, member, guest } = world.people;
  browsers = browsersOf(world);
  ({ twenty: twentyId, five: fiveId } = world.cohortIds);
  pendingCohortId = await insertCohortInProgress(server, twentyId);
  unattachedId = await insertCohortInProgress(server, fiveId);
  versionOnProject = await insertReadyVersion(server, deviceId);
  onProject = await insertProject(server, {
    deviceId,
    team: [admin.id, member.id, guest.id],
    cohortIds: [twentyId, fiveId, pendingCohortId],
    versionIds: [versionOnProject],
  });
  offProject = await insertProject(server, { deviceId, team: [teamOfOne.id], cohortIds: [twentyId] });
  onAnalysis = (await created(admin.browser, onProject, { cohortId: twentyId, parameters })).id;
  offAnalysis = (await created(teamOfOne.browser, offProject, { cohortId: twentyId, parameters })).id;
  outsider = await signedIn(server);
  const other = await createWorkspace(outsider);
  outsiderCohortId = (
    await settled(
      outsider.browser,
      other.deviceId,
      (await orderCohort(outsider.browser, other.deviceId, { name: 'Elsewhere', size: 5 })).id,
      170_000,
    )
  ).id;
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

/** The stored revision, read by the admin (who reads every project of the workspace). */
async function revisionOf(projectId: string, analysisId: string): Promise<number> {
  return (await json<Analysis>(await admin.browser.get(analysisPath(projectId, analysisId)))).revision;
}

type Call = (browser: TestBrowser) => Promise<Response>;
const deny = { anonymous: 401, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
const table: [string, Call, Record<Principal, number>][] = [
  [
    'GET …/analyses, on the team',
    (b) => b.get(analysesOf(onProject)),
    { ...deny, guest: 200, member: 200, admin: 200 },
  ],
  [
    'GET …/analyses, off the team',
    (b) => b.get(analysesOf(offProject)),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'POST …/analyses, on the team',
    (b) => b.postJson(analysesOf(onProject), { cohortId: twentyId, parameters }),
    { ...deny, guest: 403, member: 201, admin: 201 },
  ],
  [
    'POST …/analyses, off the team',
    (b) => b.postJson(analysesOf(offProject), { cohortId: twentyId, parameters }),
    { ...deny, guest: 403, member: 403, admin: 403 },
  ],
  [
    'GET …/analyses/:id, on the team',
    (b) => b.get(analysisPath(onProject, onAnalysis)),
    { ...deny, guest: 200, member: 200, admin: 200 },
  ],
  [
    'GET …/analyses/:id, off the team',
    (b) => b.get(analysisPath(offProject, offAnalysis)),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'PATCH …/analyses/:id, on the team',
    async (b) =>
      patchAnalysis(b, analysisPath(onProject, onAnalysis), { excluded: [] }, await revisionOf(onProject, onAnalysis)),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'PATCH …/analyses/:id, off the team',
    async (b) =>
      patchAnalysis(
        b,
        analysisPath(offProject, offAnalysis),
        { excluded: [] },
        await revisionOf(offProject, offAnalysis),
      ),
    { ...deny, guest: 403, member: 403, admin: 403 },
  ],
  [
    'GET …/analyses/:id of another project of the workspace',
    (b) => b.get(analysisPath(onProject, offAnalysis)),
    { ...deny, guest: 404, member: 404, admin: 404 },
  ],
  [
    'GET …/cohorts/:cohortId/parameters (the cohort is on the guest’s project)',
    (b) => b.get(`/api/devices/${deviceId}/cohorts/${twentyId}/parameters`),
    { ...deny, guest: 200, member: 200, admin: 200 },
  ],
  [
    'GET …/cohorts/:cohortId/parameters (the cohort is on no project of the guest)',
    (b) => b.get(`/api/devices/${deviceId}/cohorts/${unattachedId}/parameters`),
    // Members and admins may read it, but its patients are still being prepared.
    { ...deny, guest: 403, member: 409, admin: 409 },
  ],
];

describe('permission table of the analyses API', () => {
  it.each(table)('%s', async (_name, call, expected) => {
    const actual = {} as Record<Principal, number>;
    for (const principal of principals) actual[principal] = (await call(browsers[principal])).status;
    expect(actual).toEqual(expected);
  });

  it('tells the page whether the caller may change analyses', async () => {
    const forGuest = await json<AnalysisList>(await browsers.guest.get(analysesOf(onProject)));
    const forMember = await json<AnalysisList>(await browsers.member.get(analysesOf(onProject)));
    const offTeam = await json<AnalysisList>(await browsers.member.get(analysesOf(offProject)));
    expect([forGuest.canEdit, forMember.canEdit, offTeam.canEdit]).toEqual([false, true, false]);
    expect((await json<Analysis>(await browsers.guest.get(analysisPath(onProject, onAnalysis)))).canEdit).toBe(false);
    expect(forMember.items.map((item) => item.id)).toContain(onAnalysis);
    expect(forMember.items.find((item) => item.id === onAnalysis)?.cohort).toMatchObject({
      id: twentyId,
      name: 'Twenty',
      size: 20,
      status: 'ready',
    });
  });
});

describe('creating an analysis', () => {
  it('stores the spec defaults and answers the revision as an entity tag', async () => {
    const response = await admin.browser.postJson(analysesOf(onProject), { cohortId: twentyId, parameters });
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBe('"1"');
    const analysis = await json<Analysis>(response);
    expect(analysis).toMatchObject({
      revision: 1,
      parameters,
      excluded: [],
      excludedCount: 0,
      canEdit: true,
      settings: {
        percentiles: [5, 50, 95],
        correlationThreshold: 0.9,
        alpha: 0.001,
        targetCoveragePercent: 50,
        seedPercentile: 50,
        bandwidth: 'scott',
        sizingParameter: null,
        sizeSetWidth: null,
        deviceFits: [],
      },
    });
    const again = await admin.browser.get(analysisPath(onProject, analysis.id));
    expect(again.headers.get('etag')).toBe('"1"');
    expect(await json<Analysis>(again)).toEqual(analysis);
  });

  it('accepts a cohort of fewer than 20 patients (the page explains the minimum)', async () => {
    const analysis = await created(admin.browser, onProject, { cohortId: fiveId, parameters });
    expect(analysis.cohort).toMatchObject({ id: fiveId, size: 5 });
  });

  it('moves out-of-range percentiles to the closest valid one (spec §5) and answers the moved values', async () => {
    const analysis = await created(admin.browser, onProject, {
      cohortId: twentyId,
      parameters,
      settings: { percentiles: [120, 50, -5, 0], seedPercentile: 130 },
    });
    expect(analysis.settings.percentiles).toEqual([0, 50, 100]);
    expect(analysis.settings.seedPercentile).toBe(100);
  });

  it('keeps sizing windows per device version of the project', async () => {
    const deviceFits = [
      {
        versionId: versionOnProject,
        label: 'Valve v2',
        sizes: [
          { name: '23 mm', ranges: [{ parameter: 'aorticAnnulusPerimeter_mm', min: 60, max: 72 }] },
          { name: '26 mm', ranges: [{ parameter: 'aorticAnnulusPerimeter_mm', min: 70, max: 80 }] },
        ],
      },
      { versionId: null, label: 'Next sizes', sizes: [] },
    ];
    const analysis = await created(admin.browser, onProject, {
      cohortId: twentyId,
      parameters,
      settings: { deviceFits, sizingParameter: 'aorticAnnulusPerimeter_mm', targetCoveragePercent: 80 },
    });
    expect(analysis.settings.deviceFits).toEqual(deviceFits);
    expect(analysis.settings.sizingParameter).toBe('aorticAnnulusPerimeter_mm');
  });

  it.each([
    ['a cohort attached to no project of this one', () => unattachedId, 422, 'cohort_not_in_project'],
    ['a cohort of another workspace', () => outsiderCohortId, 422, 'cohort_not_in_project'],
    ['a cohort still being prepared', () => pendingCohortId, 409, 'cohort_not_ready'],
  ])('refuses %s', async (_name, cohortId, status, code) => {
    const refusal = await errorOf(
      await admin.browser.postJson(analysesOf(onProject), { cohortId: cohortId(), parameters }),
    );
    expect(refusal).toMatchObject({ status, code });
    expect(refusal.message.length).toBeGreaterThan(20);
  });

  it('refuses unknown parameters, naming them', async () => {
    const refusal = await errorOf(
      await admin.browser.postJson(analysesOf(onProject), {
        cohortId: twentyId,
        parameters: ['height_cm', 'shoe_size'],
        settings: {
          deviceFits: [{ label: 'v1', sizes: [{ name: 'S', ranges: [{ parameter: 'hat_size', min: 1, max: 2 }] }] }],
        },
      }),
    );
    expect(refusal).toEqual({
      status: 422,
      code: 'unknown_parameter',
      message: 'These parameters are not known: shoe_size, hat_size.',
    });
  });

  it('refuses excluded patients who are not in the cohort', async () => {
    const refusal = await errorOf(
      await admin.browser.postJson(analysesOf(onProject), {
        cohortId: twentyId,
        parameters,
        excluded: ['SYN-999999'],
      }),
    );
    expect(refusal).toMatchObject({ status: 422, code: 'unknown_patient' });
    expect(refusal.message).toContain('SYN-999999');
  });

  it('refuses a sizing proposal on a parameter that is not analysed and versions of other projects', async () => {
    const sizing = await errorOf(
      await admin.browser.postJson(analysesOf(onProject), {
        cohortId: twentyId,
        parameters,
        settings: { sizingParameter: 'lvMass_g' },
      }),
    );
    expect(sizing).toMatchObject({ status: 422, code: 'invalid_sizing_parameter' });
    const otherVersion = await insertReadyVersion(server, deviceId);
    const version = await errorOf(
      await admin.browser.postJson(analysesOf(onProject), {
        cohortId: twentyId,
        parameters,
        settings: { deviceFits: [{ versionId: otherVersion, label: 'Elsewhere', sizes: [] }] },
      }),
    );
    expect(version).toMatchObject({ status: 422, code: 'version_not_in_project' });
  });

  it.each([
    ['no parameter', { parameters: [] }],
    ['a parameter twice', { parameters: ['height_cm', 'height_cm'] }],
    ['alpha 0', { settings: { alpha: 0 } }],
    ['a correlation threshold above 1', { settings: { correlationThreshold: 1.5 } }],
    ['a target coverage of 0', { settings: { targetCoveragePercent: 0 } }],
    ['a percentile that is not a number', { settings: { percentiles: ['fifty'] } }],
    [
      'a range whose minimum exceeds its maximum',
      {
        settings: {
          deviceFits: [{ label: 'v', sizes: [{ name: 'S', ranges: [{ parameter: 'height_cm', min: 9, max: 1 }] }] }],
        },
      },
    ],
    ['a name of 101 characters', { name: 'x'.repeat(101) }],
  ])('refuses %s with 400', async (_name, change) => {
    const response = await admin.browser.postJson(analysesOf(onProject), { cohortId: twentyId, parameters, ...change });
    expect(response.status).toBe(400);
  });
});

describe('changing an analysis', () => {
  let analysisId = '';
  let patients: string[] = [];
  beforeAll(async () => {
    analysisId = (await created(admin.browser, onProject, { cohortId: twentyId, parameters })).id;
    patients = (
      await json<CohortParameterTable>(
        await admin.browser.get(`/api/devices/${deviceId}/cohorts/${twentyId}/parameters`),
      )
    ).patients;
  });
  const path = () => analysisPath(onProject, analysisId);

  it('saves the excluded set and settings against the revision in If-Match, and bumps it', async () => {
    const response = await patchAnalysis(
      browsers.member,
      path(),
      {
        excluded: [patients[3], patients[7], patients[3]],
        settings: { percentiles: [10, 90], bandwidth: 'silverman' },
        reason: 'Implausible annulus',
      },
      1,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"2"');
    const analysis = await json<Analysis>(response);
    expect(analysis).toMatchObject({ revision: 2, excluded: [patients[3], patients[7]], excludedCount: 2 });
    // Settings are replaced whole: what is left out takes its default.
    expect(analysis.settings).toMatchObject({ percentiles: [10, 90], bandwidth: 'silverman', alpha: 0.001 });
    expect(analysis.parameters).toEqual(parameters);
  });

  it('refuses a stale revision with 409 and the current one, so a second tab cannot overwrite', async () => {
    const stale = await patchAnalysis(admin.browser, path(), { excluded: [], reason: 'All back' }, 1);
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as { error: { code: string; message: string; details: { revision: number } } };
    expect(body.error).toEqual({
      code: 'revision_conflict',
      message: analysisConflictMessage,
      details: { revision: 2 },
    });
    const unchanged = await json<Analysis>(await admin.browser.get(path()));
    expect(unchanged.excluded).toEqual([patients[3], patients[7]]);
  });

  it('lets exactly one of two writers of the same revision win', async () => {
    const revision = await revisionOf(onProject, analysisId);
    const answers = await Promise.all([
      patchAnalysis(admin.browser, path(), { excluded: [patients[0]], reason: 'Outlier' }, revision),
      patchAnalysis(browsers.member, path(), { excluded: [patients[1]], reason: 'Outlier' }, revision),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await revisionOf(onProject, analysisId)).toBe(revision + 1);
  });

  it('takes the revision from the body too, and needs one of the two', async () => {
    const revision = await revisionOf(onProject, analysisId);
    const viaBody = await patchAnalysis(admin.browser, path(), { revision, name: 'Annulus study' });
    expect(viaBody.status).toBe(200);
    expect((await json<Analysis>(viaBody)).name).toBe('Annulus study');
    expect(await errorOf(await patchAnalysis(admin.browser, path(), { name: 'No revision' }))).toMatchObject({
      status: 428,
      code: 'revision_required',
    });
    expect(
      (await patchAnalysis(admin.browser, path(), { revision: revision + 1, name: 'x' }, revision + 2)).status,
    ).toBe(400);
    expect((await patchAnalysis(admin.browser, path(), { name: 'x' }, 'yesterday')).status).toBe(400);
  });

  it('checks a change like a creation', async () => {
    const revision = await revisionOf(onProject, analysisId);
    expect(
      await errorOf(await patchAnalysis(admin.browser, path(), { excluded: ['SYN-000000'] }, revision)),
    ).toMatchObject({ status: 422, code: 'unknown_patient' });
    expect(
      await errorOf(await patchAnalysis(admin.browser, path(), { parameters: ['height_cm', 'nope'] }, revision)),
    ).toMatchObject({ status: 422, code: 'unknown_parameter' });
    // A refused change leaves the revision where it was.
    expect(await revisionOf(onProject, analysisId)).toBe(revision);
  });

  it('asks a reason for excluding or including patients and keeps it in the audit trail (issue 20)', async () => {
    const own = analysisPath(
      onProject,
      (await created(admin.browser, onProject, { cohortId: twentyId, parameters })).id,
    );
    const id = own.split('/').pop()!;
    // A change of the excluded set without a reason is refused, and nothing changes; so is a creation with exclusions.
    for (const body of [{ excluded: [patients[3]] }, { excluded: [patients[3]], reason: '  ' }])
      expect(await errorOf(await patchAnalysis(browsers.member, own, body, 1))).toMatchObject({
        status: 400,
        message: reasonRequiredMessage,
      });
    expect(
      await errorOf(
        await admin.browser.postJson(analysesOf(onProject), {
          cohortId: twentyId,
          parameters,
          excluded: [patients[2]],
        }),
      ),
    ).toMatchObject({ status: 400, message: reasonRequiredMessage });
    expect(await revisionOf(onProject, id)).toBe(1);
    const excluding = { excluded: [patients[3], patients[7]], reason: 'Implausible annulus' };
    expect((await patchAnalysis(browsers.member, own, excluding, 1)).status).toBe(200);
    // Settings alone, or the same set in another order, need none.
    const reordered = { excluded: [patients[7], patients[3]], settings: { percentiles: [5, 95] } };
    expect((await patchAnalysis(browsers.member, own, reordered, 2)).status).toBe(200);
    const events = await eventsOf(server, 'analysis', id);
    expect(events.map((event) => [event.action, event.reason])).toEqual([
      ['analysis.created', null],
      ['analysis.updated', 'Implausible annulus'],
      ['analysis.updated', null],
    ]);
    expect(events[1]).toMatchObject({ before: { excluded: [] }, after: { excluded: [patients[3], patients[7]] } });
  });
});

describe('the cohort parameter table', () => {
  it('answers every patient with every analysable parameter as columns, matching the patient page', async () => {
    const table = await json<CohortParameterTable>(
      await admin.browser.get(`/api/devices/${deviceId}/cohorts/${twentyId}/parameters`),
    );
    expect(table.synthetic).toBe(true);
    expect(table.patients).toHaveLength(20);
    expect(table.sex).toHaveLength(20);
    expect(table.values).toHaveLength(table.parameters.length);
    for (const column of table.values) expect(column).toHaveLength(20);
    const patient = await json<CohortPatient>(
      await admin.browser.get(`/api/devices/${deviceId}/cohorts/${twentyId}/patients/${table.patients[4]}`),
    );
    expect(table.parameters.map((parameter) => parameter.key)).toEqual(patient.parameters.map((p) => p.key));
    patient.parameters.forEach((parameter, j) => expect(table.values[j]?.[4]).toBe(parameter.value));
  });
});
