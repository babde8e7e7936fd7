import type { NotificationList, Simulation, SimulationResults } from '@insilico/contracts';
import { writeBinaryStl, type Vec3 } from '@insilico/mesh';
import { annulusPlacement, ringDeviceMesh } from '@insilico/scenarios';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { simulations } from '../db/schema';
import type { TestBrowser } from '../../test/helpers/browser';
import { killHard, pollUntil, ProcessGroup } from '../../test/helpers/server-process';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import { orderCohort, settled } from '../../test/fixtures/cohort.fixtures';
import { createWorkspace, json, send, signedIn } from '../../test/fixtures/workspace.fixtures';
import { createRoom, patientIdsOf, roomsPathOf } from '../../test/fixtures/room.fixtures';
import { insertProject } from '../../test/factories/project-rows';
import { insertVersionWithModel } from '../../test/factories/room-rows';

// A solid simulation and a flow run (inlet and outlet) are interrupted after some of their segments are stored:
// PostgreSQL, the standalone worker running it is killed with SIGKILL and another takes over; embedded database, the
// in-process runner stops (the job is handed back) and starts again. Either way the run continues from its last stored
// checkpoint, not from zero, completes with every timestep once, and its creator is notified once.

const processes = new ProcessGroup();
afterEach(() => processes.killAll());

let server: TestServer | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

/** A room with the ring valve at the annulus; answers the path of its simulations. */
async function roomWithDevice(s: TestServer, browser: TestBrowser, deviceId: string, adminId: string) {
  const order = await orderCohort(browser, deviceId, { name: 'Crash', size: 5 });
  const cohortId = (await settled(browser, deviceId, order.id)).id;
  const [patientId] = await patientIdsOf(browser, deviceId, cohortId);
  const projectId = await insertProject(s, { deviceId, team: [adminId], cohortIds: [cohortId] });
  const { versionId } = await insertVersionWithModel(s, deviceId, {
    name: 'Ring valve',
    status: 'ready',
    projectId,
    stl: writeBinaryStl(ringDeviceMesh(9, 1.5)),
  });
  const room = await createRoom(browser, deviceId, projectId, { cohortId, patientId });
  const rooms = roomsPathOf(deviceId, projectId);
  const scene = await json<{ anatomy: { phases: string[] } }>(await browser.get(`${rooms}/${room.id}/scene`));
  const { landmarks } = await json<{ landmarks: { name: string; position: Vec3; normal?: Vec3 }[] }>(
    await browser.get(
      `/api/devices/${deviceId}/cohorts/${cohortId}/patients/${patientId}/meshes/${scene.anatomy.phases[0]}/landmarks`,
    ),
  );
  const annulus = landmarks.find((l) => l.name === 'aortic_annulus')!;
  const placed = await send(browser, 'PUT', `${rooms}/${room.id}/scene`, {
    view: { phase: null, hiddenOrgans: [] },
    placements: [
      {
        versionId,
        transform: annulusPlacement({ annulus: annulus.position, axis: annulus.normal! }, 2),
        landmark: null,
      },
    ],
  });
  expect(placed.status).toBe(200);
  return {
    create: `${rooms}/${room.id}/simulations`,
    one: (id: string) => `/api/devices/${deviceId}/projects/${projectId}/simulations/${id}`,
  };
}

/**
 * The runs interrupted: a solid one of 25 segments (stopped after three stored timesteps), and a flow run with an inlet
 * and an outlet at the test resolution (3 segments, stopped after the first: the engine restores the open boundary).
 */
const runs = {
  solid: {
    body: { kind: 'solid', resolution: 'coarse', parameters: { material: 'nitinol', simulatedTime_ms: 0.05 } },
    storedBeforeStop: 3,
    timesteps: 26,
  },
  fluid: { body: { kind: 'fluid', resolution: 'test' }, storedBeforeStop: 2, timesteps: 4 },
} as const;
type Run = (typeof runs)[keyof typeof runs];

/** Starts a run and answers its id once the run stored enough timesteps. */
async function startAndReachCheckpoint(
  browser: TestBrowser,
  paths: Awaited<ReturnType<typeof roomWithDevice>>,
  run: Run,
) {
  const response = await browser.postJson(paths.create, { ...run.body, name: 'Crash run' });
  expect(response.status).toBe(201);
  const { id } = await json<Simulation>(response);
  await pollUntil(
    `stored timesteps of ${id}`,
    async () => {
      const results = await browser.get(`${paths.one(id)}/results`);
      return results.ok ? (await json<SimulationResults>(results)).manifest.timesteps.length : null;
    },
    (stored) => stored >= run.storedBeforeStop,
    120_000,
  );
  return id;
}

async function expectResumedAndFinished(s: TestServer, browser: TestBrowser, one: string, id: string, run: Run) {
  const done = await pollUntil(
    `simulation ${id}`,
    async () => json<Simulation>(await browser.get(one)),
    (sim) => sim.status === 'completed' || sim.status === 'failed',
    180_000,
    (last) => `${last?.status} ${last?.progress}`,
  );
  expect(done.status).toBe('completed');
  const results = await json<SimulationResults>(await browser.get(`${one}/results`));
  const times = results.manifest.timesteps.map((t) => t.time);
  expect(times).toHaveLength(run.timesteps);
  expect(times.every((t, k) => k === 0 || t > times[k - 1]!)).toBe(true);
  // The last attempt of the job continued from a stored checkpoint (not from zero).
  // The row says completed before the job runner stores the performer's answer as the job's result: wait for it.
  const [row] = await s.context.db.orm.select().from(simulations).where(eq(simulations.id, id));
  const result = await pollUntil<{ resumedFrom?: number }>(
    `result of job ${row!.jobId}`,
    async () => (await s.context.jobRepository.findById(row!.jobId!))?.result ?? null,
    () => true,
    30_000,
  );
  expect(result.resumedFrom).toBeGreaterThan(0);
  const list = await json<NotificationList>(await browser.get('/api/notifications?limit=100'));
  expect(list.items.filter((n) => n.title === 'Simulation Crash run has finished')).toHaveLength(1);
}

if (process.env.TEST_DATABASE_URL)
  describe('PostgreSQL: the worker running a simulation is killed with SIGKILL', () => {
    it.each(['solid', 'fluid'] as const)(
      'a %s run: another worker continues from the last stored checkpoint and the creator is notified once',
      async (kind) => {
        server = await startTestServer({ JOBS_IN_PROCESS: 'false' });
        const workerEnv = { DATABASE_URL: server.databaseUrl!, DATA_DIR: server.dataDir };
        const first = processes.start('src/jobs/worker.ts', workerEnv);
        const admin = await signedIn(server);
        const { deviceId } = await createWorkspace(admin);
        await server.context.simulations.setTestResolution(deviceId, true);
        const paths = await roomWithDevice(server, admin.browser, deviceId, admin.id);
        const id = await startAndReachCheckpoint(admin.browser, paths, runs[kind]);
        await killHard(first);
        processes.start('src/jobs/worker.ts', workerEnv);
        await expectResumedAndFinished(server, admin.browser, paths.one(id), id, runs[kind]);
      },
      400_000,
    );
  });
else
  describe('embedded database: the job runner stops while a simulation runs', () => {
    it.each(['solid', 'fluid'] as const)(
      'a %s run continues from the last stored checkpoint after the restart and notifies once',
      async (kind) => {
        server = await startTestServer();
        const admin = await signedIn(server);
        const { deviceId } = await createWorkspace(admin);
        await server.context.simulations.setTestResolution(deviceId, true);
        const paths = await roomWithDevice(server, admin.browser, deviceId, admin.id);
        const id = await startAndReachCheckpoint(admin.browser, paths, runs[kind]);
        // Stopping without grace hands the running job back to the queue and aborts it (its thread ends).
        await server.context.jobRunner!.stop(0);
        await server.context.jobRunner!.start();
        await expectResumedAndFinished(server, admin.browser, paths.one(id), id, runs[kind]);
      },
      400_000,
    );
  });
