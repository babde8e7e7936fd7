import {
  particleNameTakenMessage,
  simulationHelpMessage,
  simulationNameTakenMessage,
  simulationResolutionMessage,
  type NotificationList,
  type RoomPage,
  type Simulation,
  type SimulationPage,
  type SimulationParticleList,
  type SimulationTimeline,
  type SimulationEstimate,
  type ResultSnapshot,
  type SimulationResults,
  type SimulationSetup,
} from '@insilico/contracts';
import { writeBinaryStl, type Vec3 } from '@insilico/mesh';
import { annulusPlacement, ringDeviceMesh } from '@insilico/scenarios';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsConsentCookie } from '@insilico/contracts/analytics';
import { analyticsEvents } from '../../db/schema';
import type { TestBrowser } from '../../../test/helpers/browser';
import { eventsOf } from '../../../test/helpers/domain-events';
import type { TestServer } from '../../../test/helpers/test-server';
import { SimulationRepository } from '../../repositories/simulation.repository';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';
import { createRoom, patientIdsOf, roomsPathOf } from '../../../test/fixtures/room.fixtures';
import { insertVersionWithModel } from '../../../test/factories/room-rows';

/**
 * The simulation API (issue 16): set-up defaults, every refusal with its message and nothing queued, runs at the
 * test resolution in the CPU pool to their results (manifest, frames, monitors), the list, rename, cancel, retry,
 * delete with the stored outputs, and who may do what (a guest on the project views, never runs).
 */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
let deviceId = '';
let projectId = '';
let roomId = '';
let emptyRoomId = '';
let farRoomId = '';
let tightRoomId = '';
let versionId = '';

const roomPath = (id: string) => `${roomsPathOf(deviceId, projectId)}/${id}/simulations`;
const simulationPath = (id: string) => `/api/devices/${deviceId}/projects/${projectId}/simulations/${id}`;

/**
 * Places the version in the room: at the annulus (snapped as the scene does), scaled by `scale`, or `far` away from
 * the anatomy.
 */
async function place(browser: TestBrowser, cohortId: string, patientId: string, room: string, far = false, scale = 1) {
  const scene = await json<{ anatomy: { phases: string[] } }>(
    await browser.get(`${roomsPathOf(deviceId, projectId)}/${room}/scene`),
  );
  const phase = scene.anatomy.phases[0]!;
  const { landmarks } = await json<{ landmarks: { name: string; position: Vec3; normal?: Vec3 }[] }>(
    await browser.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients/${patientId}/meshes/${phase}/landmarks`),
  );
  const annulus = landmarks.find((l) => l.name === 'aortic_annulus')!;
  const transform = annulusPlacement({ annulus: annulus.position, axis: annulus.normal! }, 2);
  const placed = far
    ? { ...transform, position: [600, 600, 600] }
    : { ...transform, scale: [scale, scale, scale] as Vec3 };
  const response = await send(browser, 'PUT', `${roomsPathOf(deviceId, projectId)}/${room}/scene`, {
    view: { phase: null, hiddenOrgans: [] },
    placements: [{ versionId, transform: placed, landmark: far ? null : 'aortic_annulus' }],
  });
  expect(response.status).toBe(200);
}

async function waitFor(browser: TestBrowser, id: string, done: (s: Simulation) => boolean): Promise<Simulation> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const response = await browser.get(simulationPath(id));
    expect(response.status).toBe(200);
    const simulation = await json<Simulation>(response);
    if (done(simulation)) return simulation;
    if (Date.now() > deadline) throw new Error(`simulation ${id} is still ${simulation.status}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function count(browser: TestBrowser, room: string): Promise<number> {
  return (await json<SimulationPage>(await browser.get(roomPath(room)))).total;
}

beforeAll(async () => {
  let cohortId: string;
  ({
    server,
    admin,
    deviceId,
    people: { member, guest },
    cohortIds: { aortic: cohortId },
    projectId,
  } = await projectWorld({
    people: { member: 'member', guest: 'guest' },
    cohorts: { aortic: { name: 'Aortic', size: 5 } },
    project: { team: ['admin', 'member', 'guest'], cohorts: ['aortic'] },
  }));
  const [patientId] = await patientIdsOf(admin.browser, deviceId, cohortId);
  versionId = (
    await insertVersionWithModel(server, deviceId, {
      name: 'Ring valve',
      status: 'ready',
      projectId,
      stl: writeBinaryStl(ringDeviceMesh(9, 1.5)),
    })
  ).versionId;
  roomId = (await createRoom(member.browser, deviceId, projectId, { cohortId, patientId, name: 'Valve in root' })).id;
  emptyRoomId = (await createRoom(member.browser, deviceId, projectId, { cohortId, patientId, name: 'Empty' })).id;
  farRoomId = (await createRoom(member.browser, deviceId, projectId, { cohortId, patientId, name: 'Far away' })).id;
  await place(member.browser, cohortId, patientId!, roomId);
  await place(member.browser, cohortId, patientId!, farRoomId, true);
  // A ring 5 % wider than the patient's annulus when crimped to the default 0.8 (its outer radius is 10.5 mm).
  tightRoomId = (await createRoom(member.browser, deviceId, projectId, { cohortId, patientId, name: 'Tight' })).id;
  const patient = await json<{ parameters: { key: string; value: number }[] }>(
    await member.browser.get(`/api/devices/${deviceId}/cohorts/${cohortId}/patients/${patientId}`),
  );
  const annulus = patient.parameters.find((p) => p.key === 'aorticAnnulusDiameter_mm')!.value;
  await place(member.browser, cohortId, patientId!, tightRoomId, false, (1.05 * annulus) / 2 / (10.5 * 0.8));
  // The runs here use the seconds-long test resolution, the operator's switch of the workspace.
  await server.context.simulations.setTestResolution(deviceId, true);
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

describe('set-up', () => {
  it('refuses the test resolution unless an operator turned it on for the workspace', async () => {
    await server.context.simulations.setTestResolution(deviceId, false);
    try {
      const setup = await json<SimulationSetup>(await member.browser.get(`${roomPath(roomId)}/setup?kind=fluid`));
      expect(setup.testResolution).toBe(false);
      const before = await count(member.browser, roomId);
      for (const path of [`${roomPath(roomId)}/estimate`, roomPath(roomId)]) {
        const refused = await member.browser.postJson(path, { kind: 'fluid', resolution: 'test' });
        expect(refused.status).toBe(422);
        expect((await errorOf(refused)).message).toBe(simulationResolutionMessage);
      }
      expect(await count(member.browser, roomId)).toBe(before);
    } finally {
      await server.context.simulations.setTestResolution(deviceId, true);
    }
    const setup = await json<SimulationSetup>(await member.browser.get(`${roomPath(roomId)}/setup?kind=fluid`));
    expect(setup.testResolution).toBe(true);
  });

  it('offers defaults from the patient, the material library with sources, estimates and the help message', async () => {
    const response = await member.browser.get(`${roomPath(roomId)}/setup?kind=fluid`);
    expect(response.status).toBe(200);
    const setup = await json<SimulationSetup>(response);
    expect(setup.parameters).toMatchObject({ heartRate_bpm: 70, bloodDensity_kg_m3: 1060, bloodViscosity_mPa_s: 3.5 });
    expect(setup.parameters.strokeVolume_mL).toBeGreaterThan(10);
    expect(setup.estimates?.map((e) => e.resolution)).toEqual(['coarse', 'standard', 'fine']);
    expect(setup.estimates![0]!.particles).toBeLessThan(setup.estimates![2]!.particles);
    expect(setup.planes?.inlet.radius).toBeGreaterThan(5);
    expect(setup.device).toEqual({ versionId, name: 'Ring valve' });
    expect(setup.helpMessage).toBe(simulationHelpMessage);
    expect(setup.canRun).toBe(true);
    const estimate = await member.browser.postJson(`${roomPath(roomId)}/estimate`, {
      kind: 'fluid',
      resolution: 'coarse',
      parameters: { heartRate_bpm: 90 },
    });
    expect(await json<SimulationEstimate>(estimate)).toMatchObject({
      resolution: 'coarse',
      particles: expect.any(Number),
    });
    const absurd = { kind: 'fluid', resolution: 'coarse', parameters: { bloodViscosity_mPa_s: 0 } };
    expect((await errorOf(await guest.browser.postJson(`${roomPath(roomId)}/estimate`, absurd))).message).toBe(
      'Blood viscosity must lie between 1 and 10 mPa·s.',
    );
    const solid = await json<SimulationSetup>(await member.browser.get(`${roomPath(roomId)}/setup?kind=solid`));
    expect(solid.materials.map((m) => m.id)).toEqual(['nitinol', 'stainless_316l', 'cobalt_chromium_l605']);
    expect(solid.materials.every((m) => m.source.length > 20)).toBe(true);
    const empty = await json<SimulationSetup>(await member.browser.get(`${roomPath(emptyRoomId)}/setup?kind=solid`));
    expect(empty.problems).toEqual([
      'This room has no device: place a device in the room before setting up a solid simulation.',
    ]);
    expect(empty.estimates).toBeNull();
    // No value of the form places a device: the form has nothing to offer.
    expect(empty.problemsAdjustable).toBe(false);
    expect(setup.problemsAdjustable).toBe(false);
  });

  it('tells a set-up refused only for a value of the form (the default crimp) from one no value can fix', async () => {
    const tight = await json<SimulationSetup>(await member.browser.get(`${roomPath(tightRoomId)}/setup?kind=solid`));
    expect(tight.estimates).toBeNull();
    expect(tight.problems).toEqual([
      expect.stringContaining('crimped to 0.8 of its diameter, still touches the anatomy'),
    ]);
    expect(tight.problemsAdjustable).toBe(true);
    // Crimped tighter, the same room runs: the estimate of the changed set-up says so.
    const crimped = await member.browser.postJson(`${roomPath(tightRoomId)}/estimate`, {
      kind: 'solid',
      resolution: 'test',
      parameters: { crimpRatio: 0.6 },
    });
    expect(crimped.status, await crimped.clone().text()).toBe(200);
    const far = await json<SimulationSetup>(await member.browser.get(`${roomPath(farRoomId)}/setup?kind=solid`));
    expect(far.estimates).toBeNull();
    expect(far.problemsAdjustable).toBe(false);
  });
});

describe('refusals: a 4xx with a message a person understands, nothing queued', () => {
  it('refuses absurd parameters, a room without a device for the solid kind and a device outside the anatomy', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        roomId,
        { kind: 'fluid', resolution: 'test', parameters: { heartRate_bpm: -5 } },
        'Heart rate must lie between 30 and 200 bpm.',
      ],
      [
        roomId,
        { kind: 'fluid', resolution: 'test', parameters: { strokeVolume_mL: 1e9 } },
        'Stroke volume must lie between 10 and 200 mL.',
      ],
      // A negative stroke volume would be a reversed inflow, which the engine's velocity inlet cannot carry.
      [
        roomId,
        { kind: 'fluid', resolution: 'test', parameters: { strokeVolume_mL: -70 } },
        'Stroke volume must lie between 10 and 200 mL.',
      ],
      [
        roomId,
        { kind: 'solid', resolution: 'test', parameters: { poissonRatio: 0.7, material: 'custom' } },
        "Poisson's ratio must lie between 0 and 0.49.",
      ],
      [
        emptyRoomId,
        { kind: 'solid', resolution: 'test' },
        'This room has no device: place a device in the room before setting up a solid simulation.',
      ],
    ];
    for (const [room, body, message] of cases) {
      const error = await errorOf(await member.browser.postJson(roomPath(room), body));
      expect(error.status).toBe(422);
      expect(error.message).toContain(message);
    }
    const far = await errorOf(
      await member.browser.postJson(roomPath(farRoomId), { kind: 'fluid', resolution: 'test' }),
    );
    expect(far).toMatchObject({ status: 422, code: 'simulation_setup_invalid' });
    expect(far.message).toContain('The device Ring valve lies outside the simulated anatomy');
    const resolution = await member.browser.postJson(roomPath(roomId), { kind: 'fluid', resolution: 'ultra' });
    expect(resolution.status).toBe(400);
    expect(await count(member.browser, roomId)).toBe(0);
    expect(await count(member.browser, farRoomId)).toBe(0);
  });

  it('a guest on the project may look but not start a run (403), members may', async () => {
    expect((await guest.browser.get(`${roomPath(roomId)}/setup?kind=fluid`)).status).toBe(200);
    const refused = await guest.browser.postJson(roomPath(roomId), { kind: 'fluid', resolution: 'test' });
    expect(refused.status).toBe(403);
    const page = await json<SimulationPage>(await guest.browser.get(roomPath(roomId)));
    expect(page.canRun).toBe(false);
  });
});

describe('running', () => {
  let fluid: Simulation;

  it('runs a fluid simulation at the test resolution to its results, tells its creator, and lists it', async () => {
    const response = await member.browser.postJson(roomPath(roomId), { kind: 'fluid', resolution: 'test' });
    expect(response.status).toBe(201);
    const created = await json<Simulation>(response);
    expect(created).toMatchObject({ name: 'Fluid 1', kind: 'fluid', resolution: 'test' });
    // The answer reads the run after its commit, and the commit wakes the worker: it may have started already.
    expect(['queued', 'running']).toContain(created.status);
    expect(created.deviceVersion).toEqual({ id: versionId, name: 'Ring valve' });
    fluid = await waitFor(member.browser, created.id, (s) => s.status !== 'queued' && s.status !== 'running');
    expect(fluid.status).toBe('completed');
    expect(fluid.progress).toBe(1);
    expect(fluid.simulatedTime).toBeCloseTo(fluid.endTime, 9);
    const results = await json<SimulationResults>(await guest.browser.get(`${simulationPath(fluid.id)}/results`));
    expect(results.manifest.timesteps).toHaveLength(4);
    // The blood and the wall's surface particles with their wall shear stress (Pa), summarised for the colour bar.
    expect(results.manifest.objects.map((o) => [o.name, o.kind])).toEqual([
      ['blood', 'fluid'],
      ['wall', 'wall'],
    ]);
    const wall = results.manifest.objects[1]!;
    expect(wall.columns.map((c) => [c.name, c.unit])).toEqual([
      ['particle_id', ''],
      ['position', 'mm'],
      ['wall_shear_stress', 'Pa'],
    ]);
    const stress = new Float32Array(
      await (
        await guest.browser.get(`${simulationPath(fluid.id)}/frames/wall/3?columns=wall_shear_stress`)
      ).arrayBuffer(),
    );
    expect(stress.length).toBe(results.manifest.timesteps[3]!.particleCounts!.wall);
    expect(stress.every((v) => Number.isFinite(v) && v >= 0)).toBe(true);
    expect(results.ranges?.wall?.wall_shear_stress?.max).toBeCloseTo(Math.max(...stress), 6);
    expect(results.ranges?.blood?.pressure?.min).toBeLessThanOrEqual(results.ranges!.blood!.pressure!.max);
    const frame = await guest.browser.get(`${simulationPath(fluid.id)}/frames/blood/3`);
    expect(frame.status).toBe(200);
    // Results that stay (issue 20 item 7): its event names a snapshot of them, which the project's guest reads.
    const completed = (await eventsOf(server, 'simulation', fluid.id)).find((e) => e.action === 'simulation.completed');
    const named = (completed!.after as { results: { snapshotId: string; sha256: string } }).results;
    const kept = await json<ResultSnapshot>(
      await guest.browser.get(`/api/devices/${deviceId}/result-snapshots/${named.snapshotId}`),
    );
    expect(kept).toMatchObject({ objectType: 'simulation', objectId: fluid.id, contentHash: named.sha256 });
    expect(kept.content).toMatchObject({ kind: 'simulation-results', manifest: results.manifest });
    expect(kept.content.files).toContainEqual(
      expect.objectContaining({ name: 'blood/3.bin', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    );
    const count3 = results.manifest.timesteps[3]!.particleCounts!.blood!;
    const bytes = (await frame.arrayBuffer()).byteLength;
    expect(bytes).toBe(
      results.manifest.objects[0]!.columns.reduce(
        (n, c) => n + (c.byteLength / results.manifest.objects[0]!.particleCount) * count3,
        0,
      ),
    );
    const csv = await guest.browser.get(`${simulationPath(fluid.id)}/exports/blood/3/csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="Fluid-1-blood-timestep-4.csv"');
    const rows = (await csv.text()).trim().split('\n');
    expect(rows).toHaveLength(count3 + 1);
    expect(rows[0]).toContain('Pressure (Pa)');
    const vtp = await guest.browser.get(`${simulationPath(fluid.id)}/exports/blood/3/vtp`);
    expect(await vtp.text()).toContain(`<Piece NumberOfPoints="${count3}"`);
    expect((await guest.browser.get(`${simulationPath(fluid.id)}/exports/blood/9/vtp`)).status).toBe(404);
    expect((await guest.browser.get(`${simulationPath(fluid.id)}/exports/blood/3/xls`)).status).toBe(400);
    const monitors = await guest.browser.get(results.monitorsUrl!);
    expect(monitors.status).toBe(200);
    const header = (await monitors.text()).split('\n')[0]!;
    expect(header).toContain('upstream');
    const notifications = await json<NotificationList>(await member.browser.get('/api/notifications?limit=20'));
    expect(notifications.items.map((n) => n.title)).toContain('Simulation Fluid 1 has finished');
    // The Rooms tab's "has a simulation" filter finds the room now, and only it.
    const simulated = await json<RoomPage>(
      await guest.browser.get(`${roomsPathOf(deviceId, projectId)}?hasSimulation=yes`),
    );
    expect(simulated.items.map((room) => [room.name, room.hasSimulation])).toEqual([['Valve in root', true]]);
    const without = await json<RoomPage>(
      await guest.browser.get(`${roomsPathOf(deviceId, projectId)}?hasSimulation=no`),
    );
    expect(without.items.map((room) => room.name).sort()).toEqual(['Empty', 'Far away', 'Tight']);
    const project = await json<SimulationPage>(
      await guest.browser.get(`/api/devices/${deviceId}/projects/${projectId}/simulations?search=fluid`),
    );
    expect(project.items.map((s) => s.name)).toEqual(['Fluid 1']);
    expect(project.items[0]!.roomName).toBe('Valve in root');
  }, 200_000);

  it('renames unique per room, refuses to cancel a finished run, deletes with its stored outputs', async () => {
    const second = await json<Simulation>(
      await member.browser.postJson(roomPath(roomId), {
        kind: 'particle',
        resolution: 'test',
        name: 'Debris',
        parameters: { particleCount: 8 },
      }),
    );
    const done = await waitFor(member.browser, second.id, (s) => s.status === 'completed' || s.status === 'failed');
    expect(done.status).toBe('completed');
    const duplicate = await send(member.browser, 'PATCH', simulationPath(second.id), { name: 'fluid 1' });
    expect(await errorOf(duplicate)).toEqual({
      status: 409,
      code: 'simulation_name_taken',
      message: simulationNameTakenMessage,
    });
    const renamed = await send(member.browser, 'PATCH', simulationPath(second.id), { name: 'Debris run' });
    expect((await json<Simulation>(renamed)).name).toBe('Debris run');
    expect((await send(guest.browser, 'PATCH', simulationPath(second.id), { name: 'Mine' })).status).toBe(403);
    const cancel = await member.browser.postJson(`${simulationPath(second.id)}/cancel`, {});
    expect(await errorOf(cancel)).toMatchObject({ status: 409, message: 'The simulation has already finished.' });
    const results = await json<SimulationResults>(await member.browser.get(`${simulationPath(second.id)}/results`));
    // A flow run stores its wall surface too (wall shear stress per wall particle).
    expect(results.manifest.objects.map((o) => o.name).sort()).toEqual(['blood', 'particles', 'wall']);
    const key = `simulations/${second.id}/out/particles/0.bin`;
    expect(await server.context.blobs.get('eu', key)).not.toBeNull();
    expect((await send(guest.browser, 'DELETE', simulationPath(second.id))).status).toBe(403);
    expect((await send(member.browser, 'DELETE', simulationPath(second.id))).status).toBe(204);
    expect(await server.context.blobs.get('eu', key)).toBeNull();
    expect(await server.context.blobs.get('eu', `simulations/${second.id}/case/case.json`)).toBeNull();
    expect((await member.browser.get(simulationPath(second.id))).status).toBe(404);
  }, 200_000);

  it('lets a workspace run at most its limit of simulations at once (the slot is claimed in one statement)', async () => {
    const repository = new SimulationRepository(server.context.db.orm);
    const [first, second] = await Promise.all(
      ['Slot A', 'Slot B'].map(async (name) =>
        json<Simulation>(
          await member.browser.postJson(roomPath(emptyRoomId), { kind: 'fluid', resolution: 'test', name }),
        ),
      ),
    );
    await waitFor(member.browser, first!.id, (s) => s.status === 'completed');
    await waitFor(member.browser, second!.id, (s) => s.status === 'completed');
    // As if both were waiting while another of the workspace runs.
    await repository.update(first!.id, { status: 'running' });
    await repository.update(second!.id, { status: 'queued' });
    expect(await repository.claim(second!.id, deviceId, 1)).toBe(false);
    expect(await repository.claim(second!.id, deviceId, 2)).toBe(true);
    await repository.update(first!.id, { status: 'completed' });
    await repository.update(second!.id, { status: 'completed' });
  }, 200_000);

  // Issue 21: the completion happens in the job, so the server records it, for a starter who consented only.
  it("records the analytics event 'simulation completed' for a starter with the consent cookie, once, and none without", async () => {
    const start = async (name: string) =>
      json<Simulation>(
        await member.browser.postJson(roomPath(emptyRoomId), { kind: 'fluid', resolution: 'test', name }),
      );
    member.browser.cookies.set(analyticsConsentCookie, '1');
    const consented = await start('Counted');
    member.browser.cookies.delete(analyticsConsentCookie);
    const unconsented = await start('Not counted');
    for (const run of [consented, unconsented]) await waitFor(member.browser, run.id, (s) => s.status === 'completed');
    const recorded = async (simulationId: string) =>
      server.context.db.orm
        .select()
        .from(analyticsEvents)
        .where(
          and(
            eq(analyticsEvents.eventType, 'simulation completed'),
            sql`${analyticsEvents.properties}->>'simulationId' = ${simulationId}`,
          ),
        );
    const [event, ...more] = await recorded(consented.id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      userId: member.id,
      deviceId: 'server',
      properties: { projectId, roomId: emptyRoomId, simulationId: consented.id },
    });
    expect(await recorded(unconsented.id)).toEqual([]);
    // A job run again after a crash (at-least-once) stores nothing twice.
    expect(await server.context.analytics.simulationCompleted(member.id, consented.id)).toBe(false);
  }, 200_000);

  it('cancels a long solid run (its thread ends) and runs it again on retry from its last checkpoint', async () => {
    const created = await json<Simulation>(
      await member.browser.postJson(roomPath(roomId), {
        kind: 'solid',
        resolution: 'coarse',
        parameters: { material: 'nitinol' },
      }),
    );
    const running = await waitFor(member.browser, created.id, (s) => s.status === 'running' && s.progress > 0);
    expect(running.etaSeconds).not.toBeNull();
    const cancelled = await json<Simulation>(await member.browser.postJson(`${simulationPath(created.id)}/cancel`, {}));
    expect(cancelled.status).toBe('cancelled');
    const deadline = Date.now() + 10_000;
    while (server.context.cpu.busy > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(server.context.cpu.busy).toBe(0);
    const retried = await json<Simulation>(await member.browser.postJson(`${simulationPath(created.id)}/retry`, {}));
    expect(['queued', 'running']).toContain(retried.status); // the retry's commit wakes the worker
    const again = await waitFor(member.browser, created.id, (s) => s.status === 'running' && s.progress > 0);
    // A resumable case continues: it never goes back below what it had stored before the cancel.
    expect(again.simulatedTime).toBeGreaterThan(0);
    // The audit trail holds one event per change, in order, each by the member (issue 20).
    const events = await eventsOf(server, 'simulation', created.id);
    expect(events.map((e) => e.action)).toEqual(['simulation.started', 'simulation.cancelled', 'simulation.retried']);
    expect(events.every((e) => e.actorId === member.id && e.projectId === created.projectId)).toBe(true);
    expect(events[0]!.after).toMatchObject({ kind: 'solid', resolution: 'coarse', roomId });
    expect(events[1]!.after).toMatchObject({ status: 'cancelled' });
    expect(events[2]).toMatchObject({ before: { status: 'cancelled' }, after: { status: 'queued' } });
    await member.browser.postJson(`${simulationPath(created.id)}/cancel`, {});
  }, 200_000);
  it('tells its creator when a run fails for good, with the reason, linking to its results', async () => {
    const runner = server.context.jobRunner!;
    await runner.stop(0);
    let created: Simulation;
    try {
      created = await json<Simulation>(
        await member.browser.postJson(roomPath(emptyRoomId), { kind: 'fluid', resolution: 'test', name: 'Doomed' }),
      );
      // Its stored case is gone: the last attempt of the job fails the run.
      await server.context.blobs.delete('eu', `simulations/${created.id}/case/case.json`);
      const signal = new AbortController().signal;
      const attempt = { attempt: 3, signal, progress: () => Promise.resolve() };
      await expect(server.context.simulations.run({ simulationId: created.id }, attempt)).rejects.toThrow(/missing/);
    } finally {
      await runner.start();
    }
    const failed = await waitFor(member.browser, created.id, (s) => s.status === 'failed');
    expect(failed.error).toMatch(/^The simulation failed: /);
    const notifications = await json<NotificationList>(await member.browser.get('/api/notifications?limit=20'));
    const told = notifications.items.find((n) => n.title === 'Simulation Doomed failed');
    expect(told?.body).toBe(failed.error);
    expect(told?.link).toBe(
      `/projects/room/analyses?project=${projectId}&room=${emptyRoomId}&simulation=${created.id}&device=${deviceId}`,
    );
  }, 60_000);
});

describe('results for the results page (issue 16 items 5 and 6)', () => {
  let id = '';
  let results: SimulationResults;

  beforeAll(async () => {
    const created = await json<Simulation>(
      await member.browser.postJson(roomPath(roomId), {
        kind: 'particle',
        resolution: 'test',
        name: `Tracked ${Date.now()}`,
        parameters: { particleCount: 8 },
      }),
    );
    id = (await waitFor(member.browser, created.id, (s) => s.status === 'completed' || s.status === 'failed')).id;
    results = await json<SimulationResults>(await member.browser.get(`${simulationPath(id)}/results`));
  }, 200_000);

  it('sends only the asked columns of a frame, back to back, and refuses an unknown one', async () => {
    const particles = results.manifest.objects.find((o) => o.name === 'particles')!;
    const response = await guest.browser.get(`${simulationPath(id)}/frames/particles/1?columns=position,captured`);
    expect(response.status).toBe(200);
    const count = results.manifest.timesteps[1]!.particleCounts?.particles ?? particles.particleCount;
    const bytes = new Float32Array(await response.arrayBuffer());
    expect(bytes.length).toBe(count * 4);
    // Captured is 0 or 1 (the last column sent).
    expect([...bytes.slice(3 * count)].every((v) => v === 0 || v === 1)).toBe(true);
    const unknown = await guest.browser.get(`${simulationPath(id)}/frames/particles/1?columns=pressure`);
    expect(await errorOf(unknown)).toMatchObject({
      status: 400,
      message: 'The object particles has no output pressure.',
    });
    expect((await guest.browser.get(`${simulationPath(id)}/frames/particles/1?columns=a;b`)).status).toBe(400);
  });

  it('answers a timeline: statistics per timestep and the chosen particles by id, with their names', async () => {
    const response = await guest.browser.get(`${simulationPath(id)}/timeline/particles?particles=0,3`);
    expect(response.status).toBe(200);
    const timeline = await json<SimulationTimeline>(response);
    expect(timeline.times).toHaveLength(results.manifest.timesteps.length);
    expect(timeline.outputs.map((o) => [o.name, o.unit])).toEqual([
      ['position_x', 'mm'],
      ['position_y', 'mm'],
      ['position_z', 'mm'],
      ['velocity', 'm/s'],
      ['particle_size', 'mm'],
      ['captured', ''],
    ]);
    expect(timeline.particles.map((p) => p.name)).toEqual(['Particle 0', 'Particle 3']);
    const size = timeline.particles[0]!.values.particle_size!;
    expect(size[0]).toBeCloseTo(0.2, 6);
    const stats = timeline.stats.velocity!;
    for (let k = 0; k < timeline.times.length; k++) {
      expect(stats.min[k]!).toBeLessThanOrEqual(stats.mean[k]!);
      expect(stats.mean[k]!).toBeLessThanOrEqual(stats.max[k]! + 1e-9);
    }
    const tooMany = Array.from({ length: 51 }, (_, k) => k).join(',');
    const refused = await guest.browser.get(`${simulationPath(id)}/timeline/particles?particles=${tooMany}`);
    expect(await errorOf(refused)).toMatchObject({ status: 400 });
    expect((await guest.browser.get(`${simulationPath(id)}/timeline/particles?particles=x`)).status).toBe(400);
    expect((await guest.browser.get(`${simulationPath(id)}/timeline/nothing`)).status).toBe(404);
  }, 60_000);

  it('reads a timeline particle’s values from the stored frames (the summaries answer only the statistics)', async () => {
    const particles = results.manifest.objects.find((o) => o.name === 'particles')!;
    const timeline = await json<SimulationTimeline>(
      await guest.browser.get(`${simulationPath(id)}/timeline/particles?particles=5`),
    );
    for (const [t, step] of results.manifest.timesteps.entries()) {
      const count = step.particleCounts?.particles ?? particles.particleCount;
      const bytes = await (
        await guest.browser.get(`${simulationPath(id)}/frames/particles/${t}?columns=particle_id,velocity,captured`)
      ).arrayBuffer();
      const ids = new Int32Array(bytes, 0, count);
      const velocity = new Float32Array(bytes, 4 * count, 3 * count);
      const captured = new Float32Array(bytes, 16 * count, count);
      const row = ids.indexOf(5);
      const speed = Math.hypot(velocity[row]!, velocity[count + row]!, velocity[2 * count + row]!);
      expect(timeline.particles[0]!.values.velocity![t]).toBeCloseTo(speed, 5);
      expect(timeline.particles[0]!.values.captured![t]).toBe(captured[row]);
      expect(timeline.stats.captured!.max[t]).toBe(Math.max(...captured));
    }
    // The colour bar's range over the run is that of every timestep together.
    expect(results.ranges?.particles?.velocity?.max).toBeCloseTo(
      Math.max(...timeline.stats.velocity!.max.map(Number)),
      9,
    );
  }, 60_000);

  it('bins a Range heatmap next to the stored frames: counts only, every particle of every timestep once', async () => {
    const particles = results.manifest.objects.find((o) => o.name === 'particles')!;
    const last = results.manifest.timesteps.length - 1;
    const response = await guest.browser.get(
      `${results.heatmapUrl}?objects=particles&output=velocity&start=0&end=${last}&binCount=7`,
    );
    expect(response.status).toBe(200);
    const heatmap = await json<{ data: number[][]; min: number; max: number; binSize: number; timerange: object }>(
      response,
    );
    expect(heatmap.timerange).toEqual({ start: 0, end: last });
    // Independently: the speeds of every timestep from the frames, their range, and a plain count per bin (the last
    // bin closed at the maximum).
    const speeds: Float32Array[] = [];
    for (const [t, step] of results.manifest.timesteps.entries()) {
      const count = step.particleCounts?.particles ?? particles.particleCount;
      const v = new Float32Array(
        await (await guest.browser.get(`${simulationPath(id)}/frames/particles/${t}?columns=velocity`)).arrayBuffer(),
      );
      speeds.push(Float32Array.from({ length: count }, (_, i) => Math.hypot(v[i]!, v[count + i]!, v[2 * count + i]!)));
    }
    const all = speeds.flatMap((s) => [...s]);
    expect(heatmap.min).toBe(Math.min(...all));
    expect(heatmap.max).toBe(Math.max(...all));
    expect(heatmap.binSize).toBeCloseTo((heatmap.max - heatmap.min) / 7, 12);
    const expected = speeds.map((s) => {
      const counts = new Array<number>(7).fill(0);
      for (const v of s) counts[Math.min(6, Math.floor((v - heatmap.min) / heatmap.binSize))]! += 1;
      return counts;
    });
    expect(heatmap.data).toEqual(expected);
    const bad = (query: string) => guest.browser.get(`${results.heatmapUrl}?${query}`);
    expect(await errorOf(await bad('objects=particles&output=pressure&start=0&end=1&binCount=5'))).toMatchObject({
      status: 400,
      message: 'The chosen objects have no output pressure.',
    });
    expect((await bad('objects=particles&output=velocity&start=0&end=1&binCount=5&binSize=1')).status).toBe(400);
    expect((await bad('objects=particles&output=velocity&start=0&end=1')).status).toBe(400);
    expect((await bad('objects=nothing&output=velocity&start=0&end=1&binCount=5')).status).toBe(404);
  }, 60_000);

  it('renames a particle unique per simulation (spec §5 message), members only, and the timeline says it', async () => {
    const rename = (person: Person, particle: number, name: string, object = 'particles') =>
      send(person.browser, 'PUT', `${simulationPath(id)}/particles/${object}/${particle}`, { name });
    expect((await rename(member, 3, 'Leader')).status).toBe(200);
    expect(await errorOf(await rename(member, 4, 'leader'))).toEqual({
      status: 409,
      code: 'particle_name_taken',
      message: particleNameTakenMessage,
    });
    // Another particle's default name is taken too; its own is not.
    expect((await errorOf(await rename(member, 4, 'Particle 5'))).message).toBe(particleNameTakenMessage);
    expect((await rename(member, 4, 'Particle 4')).status).toBe(200);
    expect((await rename(member, 3, 'Leader 2')).status).toBe(200);
    expect((await rename(member, 5, 'Leader')).status).toBe(200);
    expect((await errorOf(await rename(member, 6, '   '))).message).toBe('Please give the particle a name.');
    expect((await rename(member, 6, 'x'.repeat(61))).status).toBe(400);
    expect((await rename(member, -1, 'Negative')).status).toBe(400);
    expect((await rename(member, 6, 'Nowhere', 'stones')).status).toBe(404);
    expect((await rename(guest, 6, 'Mine')).status).toBe(403);
    const list = await json<SimulationParticleList>(await guest.browser.get(`${simulationPath(id)}/particles`));
    expect(list.items).toEqual([
      { object: 'particles', particle: 3, name: 'Leader 2' },
      { object: 'particles', particle: 4, name: 'Particle 4' },
      { object: 'particles', particle: 5, name: 'Leader' },
    ]);
    const timeline = await json<SimulationTimeline>(
      await guest.browser.get(`${simulationPath(id)}/timeline/particles?particles=3`),
    );
    expect(timeline.particles[0]!.name).toBe('Leader 2');
    // Each accepted name is one event with the name before and after; refusals write none (issue 20).
    const named = (await eventsOf(server, 'simulation', id)).filter((e) => e.action === 'simulation.particle_named');
    expect(named.map((e) => [e.before, e.after])).toEqual([
      [
        { object: 'particles', particle: 3, name: null },
        { object: 'particles', particle: 3, name: 'Leader', roomId: expect.any(String) },
      ],
      [
        { object: 'particles', particle: 4, name: null },
        { object: 'particles', particle: 4, name: 'Particle 4', roomId: expect.any(String) },
      ],
      [
        { object: 'particles', particle: 3, name: 'Leader' },
        { object: 'particles', particle: 3, name: 'Leader 2', roomId: expect.any(String) },
      ],
      [
        { object: 'particles', particle: 5, name: null },
        { object: 'particles', particle: 5, name: 'Leader', roomId: expect.any(String) },
      ],
    ]);
  });
});
