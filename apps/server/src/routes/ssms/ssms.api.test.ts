import { createHash } from 'node:crypto';
import {
  ssmDuplicateMessage,
  ssmTooFewCode,
  ssmTooFewMessage,
  type PatientLandmarks,
  type Room,
  type RoomPage,
  type ResultSnapshot,
  type RoomScene,
  type SimulationSetup,
  type Ssm,
  type SsmList,
} from '@insilico/contracts';
import { decodeShapeModel, modelInstance } from '@insilico/ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { eventsOf } from '../../../test/helpers/domain-events';
import type { TestServer } from '../../../test/helpers/test-server';
import { orderCohort, ssmCohorts } from '../../../test/fixtures/cohort.fixtures';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import {
  createWorkspace,
  errorOf,
  json,
  principals,
  send,
  signedIn,
  type Person,
  type Principal,
} from '../../../test/fixtures/workspace.fixtures';
import { insertCohortInProgress } from '../../../test/factories/analysis-rows';
import { insertProject } from '../../../test/factories/project-rows';

/**
 * The SSM API (issue 18): creation refused up front for every bad input (nothing queued), the duplicate and
 * too-few refusals with the spec's words, the build job to ready with modes, quality curves, model card and the
 * model file, and the permission table on and off the project's team.
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let admin: Person;
let deviceId = '';
let tenId = '';
let fiveId = '';
let pendingCohortId = '';
let onProject = '';
let offProject = '';
let outsiderCohortId = '';
let built: Ssm;

const ssmsOf = (projectId: string) => `/api/devices/${deviceId}/projects/${projectId}/ssms`;
const ssmPath = (projectId: string, ssmId: string) => `${ssmsOf(projectId)}/${ssmId}`;
const aorticRoot = () => ({ cohortIds: [tenId], organs: ['aortic_root'], phase: 'end-diastole' });

async function ready(browser: TestBrowser, projectId: string, ssmId: string, timeoutMs = 240_000): Promise<Ssm> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ssm = await json<Ssm>(await browser.get(ssmPath(projectId, ssmId)));
    if (ssm.status !== 'in_progress') return ssm;
    if (Date.now() > until) throw new Error(`SSM ${ssmId} still in progress after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function countOf(projectId: string): Promise<number> {
  return (await json<SsmList>(await admin.browser.get(ssmsOf(projectId)))).items.length;
}

beforeAll(async () => {
  // `teamOfOne`: the only one on the "off team" project.
  const world = await projectWorld({ people: { ...principalPeople, teamOfOne: 'member' }, cohorts: ssmCohorts });
  ({ server, admin, deviceId } = world);
  const { member, guest, teamOfOne } = world.people;
  browsers = browsersOf(world);
  ({ ten: tenId, five: fiveId } = world.cohortIds);
  pendingCohortId = await insertCohortInProgress(server, tenId);
  onProject = await insertProject(server, {
    deviceId,
    team: [admin.id, member.id, guest.id],
    cohortIds: [tenId, fiveId, pendingCohortId],
  });
  offProject = await insertProject(server, { deviceId, team: [teamOfOne.id], cohortIds: [tenId] });
  const outsider = await signedIn(server);
  const other = await createWorkspace(outsider);
  outsiderCohortId = (await orderCohort(outsider.browser, other.deviceId, { name: 'Elsewhere', size: 5 })).id;

  const response = await admin.browser.postJson(ssmsOf(onProject), aorticRoot());
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  const created = await json<Ssm>(response);
  expect(created).toMatchObject({ status: 'in_progress', shapeCount: 10, modes: null, quality: null });
  built = await ready(admin.browser, onProject, created.id);
}, 480_000);
afterAll(async () => {
  await server?.stop();
});

describe('building an SSM', () => {
  it('is ready with a default name, modes from s²/(N − 1), quality curves and a model card', async () => {
    expect(built.status).toBe('ready');
    // Starting the build is one event of the audit trail, with the configuration; its end another, by the system
    // for the creator (issue 20).
    expect(await eventsOf(server, 'ssm', built.id)).toMatchObject([
      { action: 'ssm.build_started', projectId: onProject, after: { name: built.name, shapeCount: 10 } },
      { action: 'ssm.built', actorId: null, projectId: onProject, after: { name: built.name, startedBy: admin.id } },
    ]);
    expect(built.progress).toBe(1);
    expect(built.name).toBe('Aortic root, end-diastole, 10 patients');
    expect(built.configuration).toEqual({
      cohortIds: [tenId],
      excludedPatients: [],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    });
    const modes = built.modes ?? [];
    expect(modes.length).toBeGreaterThan(1);
    expect(modes.length).toBeLessThanOrEqual(9);
    expect(modes.reduce((s, m) => s + m.explained, 0)).toBeCloseTo(1, 9);
    for (let k = 1; k < modes.length; k++) expect(modes[k]!.variance).toBeLessThanOrEqual(modes[k - 1]!.variance);
    const quality = built.quality!;
    expect(quality.compactness.at(-1)).toBeLessThanOrEqual(1 + 1e-12);
    expect(quality.generalisation.length).toBe(Math.min(modes.length, 8));
    expect(quality.specificity.length).toBe(modes.length);
    expect(quality.modesKept).toBeGreaterThanOrEqual(1);
    expect(built.shapes).toHaveLength(10);
    expect(built.modelCard).toMatchObject({
      cohorts: [{ id: tenId, name: 'Ten' }],
      shapes: 10,
      organs: ['aortic_root'],
      phase: 'end-diastole',
      vertices: 914,
      triangles: 1824,
      parts: [{ organ: 'aortic_root', firstVertex: 0, vertices: 914, firstTriangle: 0, triangles: 1824 }],
    });
  });

  it('serves the model file; an instance at +2 SD of mode 1 is drawn from it', async () => {
    const response = await browsers.guest.get(`${ssmPath(onProject, built.id)}/model`);
    expect(response.status).toBe(200);
    const file = decodeShapeModel(new Uint8Array(await response.arrayBuffer()));
    expect(file.vertexCount).toBe(914);
    expect(file.modeCount).toBe(built.modes!.length);
    expect(file.variances[0]).toBeCloseTo(built.modes![0]!.variance, 9);
    const shape = modelInstance(file, [2]);
    let moved = 0;
    for (let i = 0; i < shape.length; i++) moved += (shape[i]! - file.mean[i]!) ** 2;
    expect(Math.sqrt(moved)).toBeCloseTo(2 * Math.sqrt(file.variances[0]!), 3);
  });

  it('keeps its modes, quality metrics and model file’s SHA-256 as a snapshot its event names (issue 20)', async () => {
    const builtEvent = (await eventsOf(server, 'ssm', built.id)).find((e) => e.action === 'ssm.built');
    const named = (builtEvent!.after as { results: { snapshotId: string; sha256: string } }).results;
    const path = `/api/devices/${deviceId}/result-snapshots/${named.snapshotId}`;
    const kept = await json<ResultSnapshot>(await browsers.guest.get(path));
    expect(kept).toMatchObject({ objectType: 'ssm', objectId: built.id, projectId: onProject, revision: 1 });
    expect(kept.contentHash).toBe(named.sha256);
    const content = kept.content as { summary: { modes: unknown; quality: unknown }; model: { sha256: string } };
    expect(content.summary.modes).toEqual(built.modes);
    expect(content.summary.quality).toEqual(built.quality);
    const model = new Uint8Array(
      await (await browsers.guest.get(`${ssmPath(onProject, built.id)}/model`)).arrayBuffer(),
    );
    expect(content.model.sha256).toBe(createHash('sha256').update(model).digest('hex'));
    expect((await browsers.otherAdmin.get(path)).status).toBe(404);
  });

  it('tells its creator it is ready', async () => {
    const notifications = await json<{ items: { title: string; link: string | null }[] }>(
      await admin.browser.get('/api/notifications'),
    );
    const note = notifications.items.find((n) => n.title === `SSM ${built.name} is ready`);
    expect(note?.link).toContain(`ssm=${built.id}`);
  });
});

describe('downloads', () => {
  it('exports a shape as STL and VTP, the mode matrix and the quality curves as CSV', async () => {
    const base = ssmPath(onProject, built.id);
    const stl = await browsers.guest.get(`${base}/exports/shapes/2,-1/stl`);
    expect(stl.status).toBe(200);
    expect(stl.headers.get('content-disposition')).toBe(
      'attachment; filename="aortic-root-end-diastole-10-patients-2_-1.stl"',
    );
    const bytes = new Uint8Array(await stl.arrayBuffer());
    expect(bytes.length).toBe(84 + 50 * 1824);
    expect(new DataView(bytes.buffer).getUint32(80, true)).toBe(1824);
    // VTP: the same shape with each vertex's displacement from the mean; the modes are orthonormal, so the summed
    // squared displacement of "2,-1" is 2²·λ₁ + 1²·λ₂ (mm²).
    const vtp = await browsers.guest.get(`${base}/exports/shapes/2,-1/vtp`);
    expect(vtp.status).toBe(200);
    expect(vtp.headers.get('content-disposition')).toBe(
      'attachment; filename="aortic-root-end-diastole-10-patients-2_-1.vtp"',
    );
    const xml = await vtp.text();
    expect(xml).toContain('NumberOfPoints="914"');
    expect(xml).toContain('NumberOfPolys="1824"');
    const moved = /Name="displacement_from_mean_mm" NumberOfComponents="3" format="ascii">([^<]*)</.exec(xml)![1]!;
    const squared = moved
      .trim()
      .split(' ')
      .reduce((sum, v) => sum + Number(v) ** 2, 0);
    const [first, second] = built.modes!;
    expect(squared / (4 * first!.variance + second!.variance)).toBeCloseTo(1, 4);
    expect(await errorOf(await browsers.guest.get(`${base}/exports/shapes/4/stl`))).toMatchObject({
      status: 422,
      code: 'invalid_instance',
    });

    const modes = (await (await browsers.guest.get(`${base}/exports/modes.csv`)).text()).trimEnd().split('\r\n');
    const modeCount = built.modes!.length;
    expect(modes[0]).toBe(
      ['vertex', 'coordinate', 'mean_mm', ...built.modes!.map((_, k) => `mode_${k + 1}`)].join(','),
    );
    expect(modes).toHaveLength(1 + 3 * 914);
    expect(modes[1]!.split(',')).toHaveLength(3 + modeCount);
    // Each mode column is a unit vector.
    const norm = modes.slice(1).reduce((sum, line) => sum + Number(line.split(',')[3]) ** 2, 0);
    expect(norm).toBeCloseTo(1, 4);

    const quality = (await (await browsers.guest.get(`${base}/exports/quality.csv`)).text()).trimEnd().split('\r\n');
    expect(quality[0]).toBe('modes,variance_mm2,explained,compactness,generalisation_mm,specificity_mm');
    expect(quality).toHaveLength(1 + modeCount);
    expect(Number(quality[1]!.split(',')[1])).toBeCloseTo(built.modes![0]!.variance, 6);
  });
});

describe('refusals (nothing queued)', () => {
  it('refuses the same configuration with the spec’s message, whatever the name or order', async () => {
    const before = await countOf(onProject);
    const response = await admin.browser.postJson(ssmsOf(onProject), {
      ...aorticRoot(),
      cohortIds: [tenId, tenId],
      organs: ['aortic_root', 'aortic_root'],
      name: 'Another name',
    });
    expect(await errorOf(response)).toMatchObject({ status: 409, code: 'ssm_exists', message: ssmDuplicateMessage });
    expect(await countOf(onProject)).toBe(before);
  });

  it('refuses too few patients with the reach-out message (after patients lacking the phase are named)', async () => {
    const body = { ...aorticRoot(), cohortIds: [fiveId] };
    const first = await admin.browser.postJson(ssmsOf(onProject), body);
    const answer = (await first.json()) as {
      error: { code: string; message: string; details?: { patients?: string[] } };
    };
    expect(first.status).toBe(422);
    // A synthetic patient may lack a phase's images: those are named first, to be left out.
    let lacking: string[] = [];
    if (answer.error.code === 'phase_missing') {
      lacking = answer.error.details?.patients ?? [];
      expect(lacking.length).toBeGreaterThan(0);
      expect(answer.error.message).toContain('Leave them out or choose another phase.');
    } else expect(answer.error).toMatchObject({ code: ssmTooFewCode, message: ssmTooFewMessage(5) });
    const five = await admin.browser.postJson(ssmsOf(onProject), { ...body, excludedPatients: lacking });
    expect(await errorOf(five)).toMatchObject({
      status: 422,
      code: ssmTooFewCode,
      message: ssmTooFewMessage(5 - lacking.length),
    });
    const leftOut = built.shapes![0]!.patientId;
    const nine = await admin.browser.postJson(ssmsOf(onProject), { ...aorticRoot(), excludedPatients: [leftOut] });
    expect(await errorOf(nine)).toMatchObject({ status: 422, code: ssmTooFewCode, message: ssmTooFewMessage(9) });
  });

  it('refuses cohorts off the project or not ready, unknown patients, all patients left out, bad organs and phases', async () => {
    const before = await countOf(onProject);
    const post = (body: Record<string, unknown>) =>
      admin.browser.postJson(ssmsOf(onProject), { ...aorticRoot(), ...body });
    expect(await errorOf(await post({ cohortIds: [outsiderCohortId] }))).toMatchObject({
      status: 422,
      code: 'cohort_not_in_project',
    });
    expect(await errorOf(await post({ cohortIds: [tenId, pendingCohortId] }))).toMatchObject({
      status: 409,
      code: 'cohort_not_ready',
    });
    expect(await errorOf(await post({ excludedPatients: ['SYN-999999'] }))).toMatchObject({
      status: 422,
      code: 'unknown_patient',
    });
    expect(
      await errorOf(await post({ excludedPatients: built.shapes!.map((shape) => shape.patientId) })),
    ).toMatchObject({ status: 422, code: 'all_patients_excluded' });
    expect((await post({ organs: ['rib_cage'] })).status).toBe(400);
    expect((await post({ organs: [] })).status).toBe(400);
    expect((await post({ phase: 'cine' })).status).toBe(400);
    expect((await post({ cohortIds: [] })).status).toBe(400);
    expect((await post({ name: 'x'.repeat(61) })).status).toBe(400);
    expect(await countOf(onProject)).toBe(before);
  });
});

describe('rooms on an SSM', () => {
  const roomsOf = (projectId: string) => `/api/devices/${deviceId}/projects/${projectId}/rooms`;

  it('creates a room on the SSM, found by the Rooms tab’s SSM filter, showing the mean shape', async () => {
    const response = await browsers.member.postJson(roomsOf(onProject), { ssmId: built.id });
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    const room = await json<Room>(response);
    expect(room.name).toBe(`${built.name} room`);
    expect(room.subject).toEqual({ kind: 'ssm', ssmId: built.id });
    const page = await json<RoomPage>(await browsers.guest.get(`${roomsOf(onProject)}?ssmId=${built.id}`));
    expect(page.items.map((item) => item.id)).toEqual([room.id]);
    expect(page.facets.ssms).toEqual([{ ssmId: built.id, name: built.name }]);
    const patientsOnly = await json<RoomPage>(await browsers.guest.get(`${roomsOf(onProject)}?subject=patient`));
    expect(patientsOnly.items.map((item) => item.id)).not.toContain(room.id);

    const scene = await json<RoomScene>(await browsers.guest.get(`${roomsOf(onProject)}/${room.id}/scene`));
    expect(scene.anatomy.phases).toEqual(['mean']);
    expect(scene.anatomy.organs).toEqual(['aortic_root']);
    const meshUrl = scene.anatomy.meshUrlTemplate.replace('{phase}', 'mean');
    const glb = new Uint8Array(await (await browsers.guest.get(meshUrl)).arrayBuffer());
    expect(new TextDecoder().decode(glb.subarray(0, 4))).toBe('glTF');
    const landmarks = await json<PatientLandmarks>(
      await browsers.guest.get(scene.anatomy.landmarksUrlTemplate.replace('{phase}', 'mean')),
    );
    expect(landmarks.landmarks.length).toBeGreaterThan(0);
    const saved = await send(browsers.member, 'PUT', `${roomsOf(onProject)}/${room.id}/scene`, {
      placements: [],
      view: { phase: 'mean', hiddenOrgans: [] },
    });
    expect(saved.status).toBe(200);
    const shaped = await send(browsers.member, 'PUT', `${roomsOf(onProject)}/${room.id}/scene`, {
      placements: [],
      view: { phase: '2,-1', hiddenOrgans: [] },
    });
    const shapedScene = await json<RoomScene>(shaped);
    expect(shapedScene.view.phase).toBe('2,-1');
    // The saved shape is offered beside the mean: the room is a named instance of the model.
    expect(shapedScene.anatomy.phases).toEqual(['mean', '2,-1']);
    const tooFar = await send(browsers.member, 'PUT', `${roomsOf(onProject)}/${room.id}/scene`, {
      placements: [],
      view: { phase: '3.5', hiddenOrgans: [] },
    });
    expect(await errorOf(tooFar)).toMatchObject({ status: 422, code: 'invalid_instance' });
  });

  it('draws a shape at +2 SD of mode 1, its landmarks moving with it, and refuses beyond ±3 SD', async () => {
    const landmarksAt = async (instance: string) =>
      json<PatientLandmarks>(await admin.browser.get(`${ssmPath(onProject, built.id)}/meshes/${instance}/landmarks`));
    const mean = await landmarksAt('mean');
    const moved = await landmarksAt('2');
    expect(moved.landmarks.map((l) => l.name)).toEqual(mean.landmarks.map((l) => l.name));
    expect(moved.landmarks.some((l, i) => l.position[0] !== mean.landmarks[i]!.position[0])).toBe(true);
    expect((await admin.browser.get(`${ssmPath(onProject, built.id)}/meshes/2,0`)).status).toBe(200);
    for (const bad of ['4', 'one', `${'0,'.repeat(40)}0`])
      expect(await errorOf(await admin.browser.get(`${ssmPath(onProject, built.id)}/meshes/${bad}`))).toMatchObject({
        status: 422,
        code: 'invalid_instance',
      });
  });

  it('runs simulations as a patient room does: the case is built on the shape the room shows', async () => {
    const created = await browsers.member.postJson(roomsOf(onProject), { ssmId: built.id, name: 'Simulated shape' });
    const room = await json<Room>(created);
    const setupOf = async () =>
      json<SimulationSetup>(await browsers.member.get(`${roomsOf(onProject)}/${room.id}/simulations/setup?kind=fluid`));
    const mean = await setupOf();
    expect(mean).toMatchObject({ phase: 'mean shape', problems: [] });
    expect(mean.estimates?.length).toBeGreaterThan(0);
    expect(mean.planes).not.toBeNull();
    // Mode 1 at +2 SD: another shape, so other inlet and outlet planes.
    const shaped = await send(browsers.member, 'PUT', `${roomsOf(onProject)}/${room.id}/scene`, {
      placements: [],
      view: { phase: '2', hiddenOrgans: [] },
    });
    expect(shaped.status).toBe(200);
    const moved = await setupOf();
    expect(moved).toMatchObject({ phase: 'mode 1 +2 SD', problems: [] });
    expect(moved.planes).not.toEqual(mean.planes);
    const estimate = await browsers.member.postJson(`${roomsOf(onProject)}/${room.id}/simulations/estimate`, {
      kind: 'fluid',
      resolution: 'coarse',
    });
    expect(estimate.status, JSON.stringify(await estimate.clone().json())).toBe(200);
  });

  it('refuses a room on an SSM that is not the project’s', async () => {
    const elsewhere = '00000000-0000-4000-8000-000000000000';
    expect(await errorOf(await admin.browser.postJson(roomsOf(onProject), { ssmId: elsewhere }))).toMatchObject({
      status: 422,
      code: 'ssm_not_in_project',
    });
  });
});

type Call = (browser: TestBrowser) => Promise<Response>;
const deny = { anonymous: 401, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
const table: [string, Call, Record<Principal, number>][] = [
  ['GET …/ssms, on the team', (b) => b.get(ssmsOf(onProject)), { ...deny, guest: 200, member: 200, admin: 200 }],
  ['GET …/ssms, off the team', (b) => b.get(ssmsOf(offProject)), { ...deny, guest: 403, member: 200, admin: 200 }],
  [
    // The configuration exists: whoever may create reaches the duplicate check (409), nobody builds again.
    'POST …/ssms, on the team',
    (b) => b.postJson(ssmsOf(onProject), aorticRoot()),
    { ...deny, guest: 403, member: 409, admin: 409 },
  ],
  [
    'POST …/ssms, off the team',
    (b) => b.postJson(ssmsOf(offProject), aorticRoot()),
    { ...deny, guest: 403, member: 403, admin: 403 },
  ],
  ['GET …/ssms/:id', (b) => b.get(ssmPath(onProject, built.id)), { ...deny, guest: 200, member: 200, admin: 200 }],
  [
    'GET …/ssms/:id of another project of the workspace',
    (b) => b.get(ssmPath(offProject, built.id)),
    { ...deny, guest: 403, member: 404, admin: 404 },
  ],
  [
    'GET …/ssms/:id/model',
    (b) => b.get(`${ssmPath(onProject, built.id)}/model`),
    { ...deny, guest: 200, member: 200, admin: 200 },
  ],
];

describe('measurement points picked on a shape of the model (issue 23)', () => {
  it('anchors them with a landmark frame and carries them to every patient of an order', async () => {
    const browser = admin.browser;
    const measurements = `/api/devices/${deviceId}/measurement-definitions`;
    const path = ssmPath(onProject, built.id);
    // A shape off the mean (mode 1 at +1 SD): its surface is the model's vertices moved along the mode.
    const { landmarks } = await json<PatientLandmarks>(await browser.get(`${path}/meshes/1/landmarks`));
    const file = decodeShapeModel(new Uint8Array(await (await browser.get(`${path}/model`)).arrayBuffer()));
    const positions = modelInstance(file, [1]);
    const onSurface = (name: string): number[] => {
      const p = landmarks.find((l) => l.name === name)!.position;
      let best = 0;
      for (let v = 0, d = Infinity; v < positions.length / 3; v++) {
        const e = Math.hypot(...[0, 1, 2].map((a) => positions[3 * v + a]! - p[a]!));
        if (e < d) [best, d] = [v, e];
      }
      return [0, 1, 2].map((a) => positions[3 * best + a]!);
    };
    const source = { projectId: onProject, ssmId: built.id, instance: '1' };
    const picked = (position: readonly number[]) => ({ surface: { organ: 'aortic_root', position, source } });
    const body = (geometry: unknown, phase = 'end-diastole') => ({
      name: 'On a shape',
      description: '',
      phase,
      geometry,
    });
    const ostium = onSurface('left_coronary_ostium');
    const distance = { type: 'distance', from: picked(ostium), to: { landmark: 'sinotubular_junction' } };

    const created = await browser.postJson(measurements, body(distance));
    expect(created.status, await created.clone().text()).toBe(201);
    const definition = await json<{ id: string; geometry: { from: { surface: { frame: { landmarks: string[] } } } } }>(
      created,
    );
    expect(new Set(definition.geometry.from.surface.frame.landmarks).size).toBe(4);
    expect(definition.geometry.from.surface).toMatchObject({ position: ostium, source });

    const ordered = await browser.postJson(`/api/devices/${deviceId}/cohorts/${tenId}/measurement-orders`, {
      definitionIds: [definition.id],
    });
    expect(ordered.status).toBe(201);
    const orderId = (await json<{ id: string }>(ordered)).id;
    let order: { status: string; patients: { cells: { value: number | null; failure: string | null }[] }[] };
    const until = Date.now() + 180_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      order = await json(await browser.get(`/api/devices/${deviceId}/measurement-orders/${orderId}`));
    } while (order.status === 'in_progress' && Date.now() < until);
    expect(order.status).toBe('ready');
    expect(order.patients).toHaveLength(10);
    for (const { cells } of order.patients) {
      if (cells[0]!.value === null) expect(cells[0]!.failure).toMatch(/landmarks do not place it on this anatomy/);
      else expect(cells[0]!.value).toBeGreaterThan(5);
    }
    expect(order.patients.some((p) => p.cells[0]!.value !== null)).toBe(true);

    const refused = async (payload: unknown, message: string | RegExp) => {
      const response = await browser.postJson(measurements, payload);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toMatch(message);
    };
    await refused(
      body(distance, 'end-systole'),
      `The shape model ${built.name} is built at end-diastole: pick the points on a model built at end-systole, or change the phase.`,
    );
    // The STJ landmark is the centre of the lumen, millimetres from the wall.
    await refused(
      body({ ...distance, from: picked(landmarks.find((l) => l.name === 'sinotubular_junction')!.position) }),
      new RegExp(
        `^A picked point lies \\d+\\.\\d mm from the aortic root surface of the shape at mode 1 \\+1 SD of the shape model ${built.name} \\(at most 1 mm\\)`,
      ),
    );
    const beside = ostium.map((v, i) => v + (i === 2 ? 0.3 : 0));
    await refused(
      body({
        type: 'section',
        organ: 'aortic_root',
        plane: {
          kind: 'three-points',
          points: [picked(ostium), picked(beside), picked(onSurface('right_coronary_sinus'))],
        },
        quantity: 'area',
      }),
      /^The three points of the plane lie within 2 mm of one line on the shape at mode 1 \+1 SD of the shape model /,
    );
    const elsewhere = { ...source, ssmId: '00000000-0000-4000-8000-000000000000' };
    await refused(
      body({ ...distance, from: { surface: { organ: 'aortic_root', position: ostium, source: elsewhere } } }),
      'The points were picked on a shape of no statistical shape model of this device workspace.',
    );
  }, 240_000);
});

describe('permission table of the SSM API', () => {
  it.each(table)('%s', async (_name, call, expected) => {
    const actual = {} as Record<Principal, number>;
    for (const principal of principals) actual[principal] = (await call(browsers[principal])).status;
    expect(actual).toEqual(expected);
  });

  it('tells the page whether the caller may create SSMs', async () => {
    const forGuest = await json<SsmList>(await browsers.guest.get(ssmsOf(onProject)));
    const forMember = await json<SsmList>(await browsers.member.get(ssmsOf(onProject)));
    expect([forGuest.canEdit, forMember.canEdit]).toEqual([false, true]);
    expect(forMember.items.map((item) => item.id)).toEqual([built.id]);
  });
});
