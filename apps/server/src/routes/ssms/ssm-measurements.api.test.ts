import {
  measurementsDisabledMessage,
  ssmDuplicateMessage,
  ssmRebuildCurrentMessage,
  type MeasurementOrder,
  type MeasurementOrderList,
  type Room,
  type RoomPage,
  type RoomScene,
  type Ssm,
  type SsmModeMeasurements,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/test-server';
import { eventsOf } from '../../../test/helpers/domain-events';
import { ssmCohorts } from '../../../test/fixtures/cohort.fixtures';
import { asBuiltBeforeLandmarkModes, insertFailedSsm } from '../../../test/factories/ssm-rows';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';

/**
 * Measurements on an SSM's shapes: along its modes (issue 18 item 8) and as an order on its mean and named
 * instances (issue 23), one model built for both. The measuring itself is checked against the training patients in
 * cpu/ssm-measurement.task.test.ts; here the API: shapes of the answers, consistency between the two paths,
 * refusals and who may see what. Last, the same model made one built before landmark modes (`ssm-1`): its clear
 * state and its rebuild as a new version, the old one kept.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
let outsider: Person;
let deviceId = '';
let projectId = '';
let ssm: Ssm;
let instanceRoom: Room;

const api = () => `/api/devices/${deviceId}`;
const ssmPath = () => `${api()}/projects/${projectId}/ssms/${ssm.id}`;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 240_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`still waiting after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const readyOrder = (id: string) =>
  until(
    async () => json<MeasurementOrder>(await admin.browser.get(`${api()}/measurement-orders/${id}`)),
    (order) => order.status !== 'in_progress',
  );

beforeAll(async () => {
  const world = await projectWorld({
    people: { member: 'member', guest: 'guest', outsider: 'stranger' },
    cohorts: { ten: ssmCohorts.ten },
    project: { team: ['admin', 'member', 'guest'], cohorts: ['ten'] },
  });
  ({ server, admin, deviceId, projectId } = world);
  ({ member, guest, outsider } = world.people);
  const created = await admin.browser.postJson(`${api()}/projects/${projectId}/ssms`, {
    cohortIds: [world.cohortIds.ten],
    organs: ['aortic_root'],
    phase: 'end-diastole',
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const id = (await json<Ssm>(created)).id;
  ssm = await until(
    async () => json<Ssm>(await admin.browser.get(`${api()}/projects/${projectId}/ssms/${id}`)),
    (s) => s.status !== 'in_progress',
    // The build's 1,000 specificity samples took over 240 s on a loaded machine.
    540_000,
  );
  expect(ssm.status).toBe('ready');
  // A named instance: a room on the model saved on mode 1 at +2 SD.
  const rooms = `${api()}/projects/${projectId}/rooms`;
  instanceRoom = await json<Room>(await member.browser.postJson(rooms, { ssmId: ssm.id, name: 'Wide root' }));
  const saved = await send(member.browser, 'PUT', `${rooms}/${instanceRoom.id}/scene`, {
    placements: [],
    view: { phase: '2', hiddenOrgans: [] },
  });
  expect(saved.status).toBe(200);
}, 720_000);
afterAll(async () => {
  await server?.stop();
});

describe('measurements along the modes', () => {
  let table: SsmModeMeasurements;
  beforeAll(async () => {
    const response = await member.browser.get(`${ssmPath()}/mode-measurements`);
    expect(response.status, await response.clone().text()).toBe(200);
    table = await json<SsmModeMeasurements>(response);
  }, 120_000);

  it('takes the TAVI set at the model’s phase from −3 SD to +3 SD of the first modes', () => {
    expect(table.phase).toBe('end-diastole');
    expect(table.set.key).toBe('scct-tavi');
    expect(table.deviations).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(table.measurements.length).toBe(21);
    expect(table.measurements[0]).toEqual({ key: 'annulus-area', name: 'Aortic annulus area', unit: 'mm²' });
    expect(table.modes.map((m) => m.mode)).toEqual(
      Array.from({ length: Math.min(6, ssm.modes!.length) }, (_, k) => k + 1),
    );
    for (const mode of table.modes) {
      expect(mode.rows).toHaveLength(21);
      for (const row of mode.rows) expect(row).toHaveLength(7);
      // The annulus area exists at every position, and 0 SD is the mean shape in every mode.
      for (const cell of mode.rows[0]!) expect(cell.value).toBeGreaterThan(100);
      mode.rows.forEach((row, m) => expect(row[3]).toEqual(table.modes[0]!.rows[m]![3]));
    }
    // The first mode changes the annulus: its values at −3 and +3 SD differ.
    const annulus = table.modes[0]!.rows[0]!;
    expect(annulus[0]!.value).not.toBeCloseTo(annulus[6]!.value!, 3);
  });

  it('downloads the same values as CSV, units in the headers', async () => {
    const response = await member.browser.get(`${ssmPath()}/exports/mode-measurements.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/-mode-measurements\.csv"$/);
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^mode,sd,Aortic annulus area \(mm²\),Aortic annulus perimeter \(mm\),/);
    expect(lines).toHaveLength(1 + 7 * table.modes.length);
    const [mode, sd, area] = lines[1]!.split(',');
    expect([mode, sd]).toEqual(['1', '-3']);
    expect(Number(area)).toBeCloseTo(table.modes[0]!.rows[0]![0]!.value!, 9);
  });

  it('is read by the project’s guests too, and by nobody outside the workspace', async () => {
    expect((await guest.browser.get(`${ssmPath()}/mode-measurements`)).status).toBe(200);
    expect((await outsider.browser.get(`${ssmPath()}/mode-measurements`)).status).toBe(404);
  });
});

describe('a measurement order on the model’s shapes', () => {
  let order: MeasurementOrder;
  let areaId = '';
  beforeAll(async () => {
    // The annulus area at end-diastole (the model's phase), and the built-in set's annulus area (end-systole).
    const defined = await admin.browser.postJson(`${api()}/measurement-definitions`, {
      name: 'Annulus area at end-diastole',
      description: '',
      phase: 'end-diastole',
      geometry: {
        type: 'section',
        organ: 'aortic_root',
        plane: { kind: 'landmark', landmark: 'aortic_annulus' },
        quantity: 'area',
      },
    });
    expect(defined.status, await defined.clone().text()).toBe(201);
    areaId = (await json<{ id: string }>(defined)).id;
    const response = await member.browser.postJson(`${ssmPath()}/measurement-orders`, {
      definitionIds: [areaId, 'scct-tavi/annulus-area@1'],
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const queued = await json<MeasurementOrder>(response);
    expect(queued).toMatchObject({ cohortId: null, cohortName: ssm.name, ssm: { id: ssm.id, projectId } });
    order = await readyOrder(queued.id);
  }, 240_000);

  it('measures the mean and each named instance as the modes table does', async () => {
    expect(order.status).toBe('ready');
    expect(order.patients.map((p) => p.patientId)).toEqual(['Mean shape', 'Wide root']);
    const table = await json<SsmModeMeasurements>(await member.browser.get(`${ssmPath()}/mode-measurements`));
    const annulus = table.modes[0]!.rows[0]!;
    // Mean shape = 0 SD; "Wide root" = mode 1 at +2 SD.
    expect(order.patients[0]!.cells[0]!.value).toBeCloseTo(annulus[3]!.value!, 9);
    expect(order.patients[1]!.cells[0]!.value).toBeCloseTo(annulus[5]!.value!, 9);
    // The built-in set is taken at end-systole: the model has no such shape, and says so.
    expect(order.patients[0]!.cells[1]).toMatchObject({
      value: null,
      failure: 'This shape model is built at end-diastole; the measurement is taken at end-systole.',
    });
  });

  it('downloads as CSV by shape name and refuses hand corrections', async () => {
    const csv = await member.browser.get(`${api()}/measurement-orders/${order.id}/results.csv`);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain('Wide root');
    const corrected = await send(
      member.browser,
      'PUT',
      `${api()}/measurement-orders/${order.id}/patients/SYN-000001/correction`,
      { phase: 'end-diastole', landmarks: { aortic_annulus: { position: [0, 0, 0] } }, reason: 'Test' },
    );
    expect(corrected.status).toBe(409);
  });

  it('refuses outsiders, guests, and anyone without measurements in the plan, queuing nothing', async () => {
    const elsewhere = await outsider.browser.postJson(`${ssmPath()}/measurement-orders`, { definitionIds: [areaId] });
    expect(elsewhere.status).toBe(404);
    const byGuest = await guest.browser.postJson(`${ssmPath()}/measurement-orders`, { definitionIds: [areaId] });
    expect(byGuest.status).toBe(403);
    const before = (await json<MeasurementOrderList>(await admin.browser.get(`${api()}/measurement-orders`))).items
      .length;
    await server.context.subscriptions.set({ deviceId, plan: 'trial', seats: 10 });
    try {
      const refused = await member.browser.postJson(`${ssmPath()}/measurement-orders`, { definitionIds: [areaId] });
      expect(refused.status).toBe(403);
      expect((await errorOf(refused)).message).toBe(measurementsDisabledMessage);
      const modes = await member.browser.get(`${ssmPath()}/mode-measurements`);
      expect(modes.status).toBe(403);
      expect((await errorOf(modes)).message).toBe(measurementsDisabledMessage);
    } finally {
      await server.context.subscriptions.set({ deviceId, plan: 'team', seats: 10 });
    }
    const after = (await json<MeasurementOrderList>(await admin.browser.get(`${api()}/measurement-orders`))).items
      .length;
    expect(after).toBe(before);
  });
});

describe('a model built before its landmarks moved with its modes, and its rebuild', () => {
  let cohortId = '';
  let rebuilt: Ssm;
  beforeAll(async () => {
    cohortId = ssm.configuration.cohortIds[0]!;
    await asBuiltBeforeLandmarkModes(server, ssm.id);
  });

  it('says so, and its shapes are not measured (nothing queued)', async () => {
    const older = await json<Ssm>(await member.browser.get(ssmPath()));
    expect(older).toMatchObject({ status: 'ready', version: 1, rebuiltFrom: null, rebuiltAs: null });
    expect(older.landmarksFollowModes).toBe(false);
    const before = (await json<MeasurementOrderList>(await admin.browser.get(`${api()}/measurement-orders`))).items;
    const refused = await member.browser.postJson(`${ssmPath()}/measurement-orders`, {
      definitionIds: ['scct-tavi/annulus-area@1'],
    });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe('ssm_landmarks_fixed');
    const after = (await json<MeasurementOrderList>(await admin.browser.get(`${api()}/measurement-orders`))).items;
    expect(after).toHaveLength(before.length);
  });

  it('is rebuilt as version 2 by who may create models; guests and outsiders may not', async () => {
    expect((await guest.browser.postJson(`${ssmPath()}/rebuild`, {})).status).toBe(403);
    expect((await outsider.browser.postJson(`${ssmPath()}/rebuild`, {})).status).toBe(404);
    const response = await member.browser.postJson(`${ssmPath()}/rebuild`, {});
    expect(response.status, await response.clone().text()).toBe(201);
    rebuilt = await json<Ssm>(response);
    expect(rebuilt.id).not.toBe(ssm.id);
    expect(rebuilt).toMatchObject({
      name: ssm.name,
      configuration: ssm.configuration,
      shapeCount: ssm.shapeCount,
      version: 2,
      rebuiltFrom: { id: ssm.id, version: 1 },
      rebuiltAs: null,
    });
    const started = (await eventsOf(server, 'ssm', rebuilt.id)).filter((e) => e.action === 'ssm.build_started');
    expect(started).toHaveLength(1);
    expect(started[0]!.after).toMatchObject({ version: 2, rebuiltFrom: ssm.id });
    // Once: the old version names its rebuild, and a second rebuild is refused.
    const again = await admin.browser.postJson(`${ssmPath()}/rebuild`, {});
    expect(again.status).toBe(409);
    const refused = await errorOf(again);
    expect(refused.code).toBe('ssm_rebuilt');
    expect(refused.message).toContain('version 2');
  });

  it('keeps the old version readable as it was, its rooms included; the duplicate rule still holds', async () => {
    const older = await json<Ssm>(await member.browser.get(ssmPath()));
    expect(older).toMatchObject({ status: 'ready', version: 1, rebuiltAs: { id: rebuilt.id, version: 2 } });
    expect(older.modes).toEqual(ssm.modes);
    expect((await member.browser.get(`${ssmPath()}/model`)).status).toBe(200);
    const room = await member.browser.get(`${api()}/projects/${projectId}/rooms/${instanceRoom.id}`);
    expect(room.status).toBe(200);
    expect((await json<Room>(room)).subject).toEqual({ kind: 'ssm', ssmId: ssm.id });
    const duplicate = await admin.browser.postJson(`${api()}/projects/${projectId}/ssms`, {
      cohortIds: [cohortId],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    });
    expect(duplicate.status).toBe(409);
    expect((await errorOf(duplicate)).message).toBe(ssmDuplicateMessage);
  });

  it('builds the new version with landmark modes; a current model is not rebuilt', async () => {
    const ready = await until(
      async () => json<Ssm>(await member.browser.get(`${api()}/projects/${projectId}/ssms/${rebuilt.id}`)),
      (s) => s.status !== 'in_progress',
      540_000,
    );
    expect(ready.status).toBe('ready');
    expect(ready.landmarksFollowModes).toBe(true);
    expect(ready.modelCard?.codeVersion).toBe('ssm-3');
    // The same patients, the same code path: the same modes as the model first built.
    expect(ready.modes).toHaveLength(ssm.modes!.length);
    ready.modes!.forEach((m, k) => expect(m.variance).toBeCloseTo(ssm.modes![k]!.variance, 6));
    const modes = await member.browser.get(`${api()}/projects/${projectId}/ssms/${rebuilt.id}/mode-measurements`);
    expect(modes.status).toBe(200);
    const current = await member.browser.postJson(`${api()}/projects/${projectId}/ssms/${rebuilt.id}/rebuild`, {});
    expect(current.status).toBe(409);
    expect(await errorOf(current)).toMatchObject({ code: 'ssm_current', message: ssmRebuildCurrentMessage });
  }, 600_000);

  it('carries the named instances over as copies on their shapes mapped to the new model; the old rooms stay', async () => {
    const copies = await json<RoomPage>(
      await member.browser.get(`${api()}/projects/${projectId}/rooms?ssmId=${rebuilt.id}`),
    );
    expect(copies.items.map((room) => room.name)).toEqual(['Wide root (version 2)']);
    const copy = copies.items[0]!;
    expect(copy.subject).toEqual({ kind: 'ssm', ssmId: rebuilt.id });
    // The same patients and code: mode 1 at +2 SD of the old model is mode 1 at +2 SD of the new one.
    const scene = await json<RoomScene>(
      await member.browser.get(`${api()}/projects/${projectId}/rooms/${copy.id}/scene`),
    );
    expect(scene.view.phase).toBe('2');
    expect(scene.placements).toEqual([]);
    const created = (await eventsOf(server, 'room', copy.id)).filter((e) => e.action === 'room.created');
    expect(created).toHaveLength(1);
    expect(created[0]!.actorId).toBeNull();
    expect(created[0]!.after).toMatchObject({
      ssmId: rebuilt.id,
      shape: '2',
      copiedFrom: { roomId: instanceRoom.id, ssmId: ssm.id, shape: '2' },
      clampedModes: [],
    });
    expect((created[0]!.after as { residual_mm: number }).residual_mm).toBeLessThan(0.01);
    const built = (await eventsOf(server, 'ssm', rebuilt.id)).filter((e) => e.action === 'ssm.built');
    expect(built[0]!.after).toMatchObject({ instances: [{ roomId: instanceRoom.id, copied: true }] });
    // The old room is untouched: still on version 1, on its own shape.
    const old = await json<RoomScene>(
      await member.browser.get(`${api()}/projects/${projectId}/rooms/${instanceRoom.id}/scene`),
    );
    expect(old.room.subject).toEqual({ kind: 'ssm', ssmId: ssm.id });
    expect(old.view.phase).toBe('2');
  });
});

describe('a failed build, retried', () => {
  const failure = 'The shape model could not be built. Please create it again or contact support.';
  let version2: Ssm;
  let failedId = '';
  const path = (id: string) => `${api()}/projects/${projectId}/ssms/${id}`;
  beforeAll(async () => {
    const list = (await json<{ items: Ssm[] }>(await member.browser.get(`${api()}/projects/${projectId}/ssms`))).items;
    version2 = list.find((s) => s.version === 2)!;
    expect(version2.status).toBe('ready');
    // Version 2 rebuilt as version 3, whose build failed (as the build job leaves a model after its last attempt).
    failedId = await insertFailedSsm(server, {
      deviceId,
      projectId,
      createdBy: member.id,
      name: version2.name,
      configuration: version2.configuration,
      shapeCount: version2.shapeCount,
      error: failure,
      version: 3,
      rebuiltFrom: version2.id,
    });
  });

  it('shows the failure; its model is neither rebuilt again nor retried when its configuration no longer holds', async () => {
    const failed = await json<Ssm>(await member.browser.get(path(failedId)));
    expect(failed).toMatchObject({ status: 'failed', error: failure, version: 3 });
    const again = await member.browser.postJson(`${path(version2.id)}/rebuild`, {});
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toContain('version 3, which failed');
    // A failed model on a cohort that left the project: 422 in words, nothing changed.
    const stranded = await insertFailedSsm(server, {
      deviceId,
      projectId,
      createdBy: member.id,
      name: 'Stranded',
      configuration: { ...version2.configuration, cohortIds: [crypto.randomUUID()] },
      shapeCount: 10,
      error: failure,
    });
    const refused = await member.browser.postJson(`${path(stranded)}/retry`, {});
    expect(refused.status).toBe(422);
    expect((await errorOf(refused)).code).toBe('cohort_not_in_project');
    expect(await json<Ssm>(await member.browser.get(path(stranded)))).toMatchObject({
      status: 'failed',
      error: failure,
    });
    expect(await eventsOf(server, 'ssm', stranded)).toHaveLength(0);
  });

  it('is retried by who may create models, once; a model that did not fail is not', async () => {
    expect((await guest.browser.postJson(`${path(failedId)}/retry`, {})).status).toBe(403);
    expect((await outsider.browser.postJson(`${path(failedId)}/retry`, {})).status).toBe(404);
    const ready = await member.browser.postJson(`${path(version2.id)}/retry`, {});
    expect(ready.status).toBe(409);
    expect((await errorOf(ready)).code).toBe('ssm_not_failed');
    const response = await member.browser.postJson(`${path(failedId)}/retry`, {});
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await json<Ssm>(response)).toMatchObject({
      id: failedId,
      status: 'in_progress',
      error: null,
      version: 3,
      rebuiltFrom: { id: version2.id, version: 2 },
    });
    const retried = (await eventsOf(server, 'ssm', failedId)).filter((e) => e.action === 'ssm.build_retried');
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatchObject({
      actorId: member.id,
      before: { status: 'failed', error: failure },
      after: { version: 3, rebuiltFrom: version2.id },
    });
    const twice = await admin.browser.postJson(`${path(failedId)}/retry`, {});
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).code).toBe('ssm_not_failed');
  });

  it('builds as a rebuild does: ready, the same modes, the named instances carried over', async () => {
    const ready = await until(
      async () => json<Ssm>(await member.browser.get(path(failedId))),
      (s) => s.status !== 'in_progress',
      540_000,
    );
    expect(ready.status).toBe('ready');
    ready.modes!.forEach((m, k) => expect(m.variance).toBeCloseTo(version2.modes![k]!.variance, 6));
    const copies = await json<RoomPage>(
      await member.browser.get(`${api()}/projects/${projectId}/rooms?ssmId=${failedId}`),
    );
    expect(copies.items.map((room) => room.name)).toEqual(['Wide root (version 2) (version 3)']);
    const older = await json<Ssm>(await member.browser.get(path(version2.id)));
    expect(older.rebuiltAs).toEqual({ id: failedId, version: 3, status: 'ready' });
  }, 600_000);
});
