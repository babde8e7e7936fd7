import type { CohortPatientPage, CohortPatient } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBrowser } from '../../../test/helpers/browser';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { json, principals, send, type Person, type Principal } from '../../../test/fixtures/workspace.fixtures';
import { insertProject } from '../../../test/factories/project-rows';
import { criteriaWith, orderBody } from '../../../test/fixtures/cohort.fixtures';

/**
 * The permission table of the cohort API (issue 4): every endpoint for every principal, each cell an explicit
 * allow (2xx) or deny (401 / 403 / 404). Members and admins order and read; guests read only cohorts attached
 * to projects they are on (docs/decisions/cohort-permissions.md): the table's cohort is on a project without
 * them, a second one on a project with them.
 */
let server: TestServer;
let admin: Person;
let browsers = {} as Record<Principal, TestBrowser>;
let deviceId = '';
let cohortId = '';
let patientId = '';
let phase = '';
let orderCounter = 0;
let guestCohortId = '';
let guestProjectId = '';
let guestId = '';

beforeAll(async () => {
  const world = await projectWorld({
    people: principalPeople,
    cohorts: {
      readable: { name: 'Readable', size: 5 },
      onGuestsProject: { name: 'On the guest’s project', size: 5 },
    },
  });
  ({ server, admin, deviceId } = world);
  browsers = browsersOf(world);
  ({ readable: cohortId, onGuestsProject: guestCohortId } = world.cohortIds);
  const page = await json<CohortPatientPage>(
    await admin.browser.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients`),
  );
  patientId = page.items[0]!.id;
  const patient = await json<CohortPatient>(
    await admin.browser.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients/${patientId}`),
  );
  phase = patient.meshes.phases[0]!;
  guestId = world.people.guest.id;
  await insertProject(server, { deviceId, team: [admin.id], cohortIds: [cohortId] });
  guestProjectId = await insertProject(server, { deviceId, team: [admin.id, guestId], cohortIds: [guestCohortId] });
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

type Call = (browser: TestBrowser) => Promise<Response>;
const x = 401; // anonymous
const cohortPath = () => `/api/devices/${deviceId}/cohorts/${cohortId}`;
const deny = { anonymous: x, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
const table: [string, Call, Record<Principal, number>][] = [
  [
    'POST /api/devices/:id/cohorts/count',
    (b) => b.postJson(`/api/devices/${deviceId}/cohorts/count`, { criteria: criteriaWith() }),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'POST /api/devices/:id/cohorts',
    (b) => b.postJson(`/api/devices/${deviceId}/cohorts`, orderBody({ name: `Order ${(orderCounter += 1)}` })),
    { ...deny, guest: 403, member: 201, admin: 201 },
  ],
  [
    'POST /api/devices/:id/pathology-requests',
    (b) => b.postJson(`/api/devices/${deviceId}/pathology-requests`, { name: 'Marfan syndrome' }),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'GET /api/devices/:id/cohorts',
    (b) => b.get(`/api/devices/${deviceId}/cohorts`),
    { ...deny, guest: 200, member: 200, admin: 200 },
  ],
  ['GET .../cohorts/:cohortId', (b) => b.get(cohortPath()), { ...deny, guest: 403, member: 200, admin: 200 }],
  [
    'GET .../cohorts/:cohortId/patients',
    (b) => b.get(`${cohortPath()}/patients`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'GET .../cohorts/:cohortId/patients.csv',
    (b) => b.get(`${cohortPath()}/patients.csv`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'GET .../patients/:patientId',
    (b) => b.get(`${cohortPath()}/patients/${patientId}`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'GET .../patients/:patientId/meshes/:phase',
    (b) => b.get(`${cohortPath()}/patients/${patientId}/meshes/${phase}`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'GET .../patients/:patientId/meshes/:phase/landmarks',
    (b) => b.get(`${cohortPath()}/patients/${patientId}/meshes/${phase}/landmarks`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'GET .../cohorts/:unknownId (no such cohort in this workspace)',
    (b) => b.get(`/api/devices/${deviceId}/cohorts/00000000-0000-4000-8000-000000000000`),
    { ...deny, guest: 404, member: 404, admin: 404 },
  ],
];

describe('permission table of the cohort API', () => {
  it.each(table)('%s', async (_name, call, expected) => {
    const actual = {} as Record<Principal, number>;
    for (const principal of principals) actual[principal] = (await call(browsers[principal])).status;
    expect(actual).toEqual(expected);
  });

  it('shows a guest only the cohorts of projects they are on, and reads those in full', async () => {
    const ids = async (browser: TestBrowser) =>
      (await json<{ items: { id: string }[] }>(await browser.get(`/api/devices/${deviceId}/cohorts`))).items.map(
        (item) => item.id,
      );
    expect(await ids(browsers.guest)).toEqual([guestCohortId]);
    expect((await ids(browsers.member)).length).toBeGreaterThan(2);
    const own = `/api/devices/${deviceId}/cohorts/${guestCohortId}`;
    expect((await browsers.guest.get(own)).status).toBe(200);
    const page = await json<CohortPatientPage>(await browsers.guest.get(`${own}/patients`));
    expect(page.total).toBe(5);
    expect((await browsers.guest.get(`${own}/patients/${page.items[0]!.id}`)).status).toBe(200);
    expect((await browsers.guest.get(`${own}/patients.csv`)).status).toBe(200);
  });

  it('takes the cohort away from a guest taken off the project', async () => {
    const own = `/api/devices/${deviceId}/cohorts/${guestCohortId}`;
    await send(admin.browser, 'DELETE', `/api/devices/${deviceId}/projects/${guestProjectId}/team/${guestId}`);
    expect((await browsers.guest.get(own)).status).toBe(403);
    expect(
      (await json<{ items: unknown[] }>(await browsers.guest.get(`/api/devices/${deviceId}/cohorts`))).items,
    ).toEqual([]);
  });
});
