import type { Room, Ssm, TrialDetail, TrialSetup } from '@insilico/contracts';
import { readCsv } from '@insilico/contracts/csv';
import { writeBinaryStl } from '@insilico/mesh';
import { ringDeviceMesh } from '@insilico/scenarios';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertVersionWithModel } from '../../../test/factories/room-rows';
import { ssmCohorts } from '../../../test/fixtures/cohort.fixtures';
import { projectWorld } from '../../../test/fixtures/project-world';
import { waitForTrial } from '../../../test/fixtures/trial.fixtures';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';
import { eventsOf } from '../../../test/helpers/domain-events';
import type { TestServer } from '../../../test/helpers/test-server';
import { ssms, trialPatients, trials } from '../../db/schema';

/**
 * Trials on an SSM's named instances (issue 17 item 1): each room on a saved shape of the model is a patient of the
 * trial, placed by the same rule on the shape's aortic root, run as its own simulation in a room the trial makes on
 * that shape, its outcomes in the trial's table and CSV. The refusals (no instance, not ready, not the project's,
 * cohort and SSM both or neither, a guest) store nothing.
 */
let server: TestServer;
let member: Person;
let guest: Person;
let deviceId = '';
let projectId = '';
let versionId = '';
let ssm: Ssm;
const instances: Room[] = [];

const projectPath = () => `/api/devices/${deviceId}/projects/${projectId}`;
const trialsPath = () => `${projectPath()}/trials`;
const body = (over: Record<string, unknown> = {}) => ({
  name: 'Shapes trial',
  ssmId: ssm.id,
  versionId,
  kind: 'solid',
  resolution: 'test',
  // Crimped to 0.6: at the default 0.8 the ring still touched a shape of one SSM in CI (the shapes follow the cohort).
  parameters: { crimpRatio: 0.6 },
  placement: { landmark: 'aortic_annulus', depth_mm: 2 },
  ...over,
});
const trialCount = async () => (await server.context.db.orm.select({ id: trials.id }).from(trials)).length;

/** A named instance: a room on the SSM with its view saved on a shape. */
async function instance(name: string, shape: string): Promise<Room> {
  const created = await member.browser.postJson(`${projectPath()}/rooms`, { ssmId: ssm.id, name });
  expect(created.status).toBe(201);
  const room = await json<Room>(created);
  const saved = await send(member.browser, 'PUT', `${projectPath()}/rooms/${room.id}/scene`, {
    placements: [],
    view: { phase: shape, hiddenOrgans: [] },
  });
  expect(saved.status).toBe(200);
  return room;
}

beforeAll(async () => {
  // The smallest model there is: ten patients' aortic roots at end-diastole (ssms.api.test.ts's "Ten").
  const world = await projectWorld({
    people: { member: 'member', guest: 'guest' },
    cohorts: { ten: ssmCohorts.ten },
    project: { team: ['admin', 'member', 'guest'], cohorts: ['ten'] },
  });
  ({ server, deviceId, projectId } = world);
  ({ member, guest } = world.people);
  const cohortId = world.cohortIds.ten;
  ({ versionId } = await insertVersionWithModel(server, deviceId, {
    name: 'Ring valve',
    status: 'ready',
    projectId,
    stl: writeBinaryStl(ringDeviceMesh(8, 1.5)),
  }));
  await server.context.simulations.setTestResolution(deviceId, true);
  const built = await member.browser.postJson(`${projectPath()}/ssms`, {
    cohortIds: [cohortId],
    organs: ['aortic_root'],
    phase: 'end-diastole',
  });
  expect(built.status).toBe(201);
  const until = Date.now() + 170_000;
  for (;;) {
    ssm = await json<Ssm>(await member.browser.get(`${projectPath()}/ssms/${(await json<Ssm>(built.clone())).id}`));
    if (ssm.status !== 'in_progress' || Date.now() > until) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(ssm.status).toBe('ready');
}, 400_000);
afterAll(async () => {
  await server?.stop();
});

describe('refusals (nothing stored)', () => {
  it('refuses an SSM without named instances, not ready, not the project’s, both or neither subject, a guest', async () => {
    const refusals: [Record<string, unknown>, number, string][] = [
      [
        {},
        422,
        `The shape model ${ssm.name} has no named instances. Create one from its page (a room on a shape) first.`,
      ],
      [{ ssmId: '00000000-0000-4000-8000-000000000000' }, 422, 'Choose one of the project’s shape models.'],
      [{ ssmId: undefined }, 422, 'Choose one of the project’s cohorts or one of its shape models.'],
      [{ cohortId: '00000000-0000-4000-8000-000000000000' }, 422, 'Choose a cohort or a shape model, not both.'],
    ];
    for (const [over, status, message] of refusals) {
      const refused = await member.browser.postJson(trialsPath(), body(over));
      expect(await errorOf(refused), JSON.stringify(over)).toMatchObject({ status, message });
    }
    instances.push(await instance('Mean root', 'mean'), await instance('Wide root', '2'));
    await server.context.db.orm.update(ssms).set({ status: 'in_progress' }).where(eq(ssms.id, ssm.id));
    try {
      expect(await errorOf(await member.browser.postJson(trialsPath(), body()))).toMatchObject({
        status: 409,
        code: 'ssm_not_ready',
        message: `The shape model ${ssm.name} is not ready yet.`,
      });
    } finally {
      await server.context.db.orm.update(ssms).set({ status: 'ready' }).where(eq(ssms.id, ssm.id));
    }
    expect((await guest.browser.postJson(trialsPath(), body())).status).toBe(403);
    expect(await trialCount()).toBe(0);
  });

  it('offers the project’s ready SSMs with their named instances in the set-up', async () => {
    const setup = await json<TrialSetup>(await guest.browser.get(`${trialsPath()}/setup`));
    expect(setup.ssms).toEqual([{ id: ssm.id, name: ssm.name, instances: 2 }]);
  });
});

describe('a trial on the SSM’s named instances', () => {
  it('lists every instance with the reason when the rule fails, and nothing runs', async () => {
    const created = await member.browser.postJson(
      trialsPath(),
      body({
        name: 'Too small',
        placement: { landmark: 'aortic_annulus', depth_mm: 0, annulusRange_mm: { min: 60, max: 70 } },
      }),
    );
    expect(created.status).toBe(201);
    const trialId = (await json<TrialDetail>(created)).id;
    const failed = await waitForTrial(member.browser, `${trialsPath()}/${trialId}`, (t) => t.status !== 'running');
    expect(failed.counts).toMatchObject({ total: 2, failed: 2, done: 0 });
    for (const p of failed.patients) {
      expect(p).toMatchObject({ stage: 'placement', roomId: null, simulationId: null });
      expect(p.error).toMatch(/^The aortic annulus measures \d+\.\d mm, outside the device’s size range 60–70 mm\.$/);
    }
    // The two shapes differ, so do their annuli: compared as measured, since the message rounds to 0.1 mm and the
    // shapes follow the cohort, drawn afresh each run (the mean's and mode 1's annuli once rounded alike).
    const placed = await server.context.db.orm
      .select({ placement: trialPatients.placement })
      .from(trialPatients)
      .where(eq(trialPatients.trialId, trialId));
    const diameters = placed.map((row) => (row.placement as { annulusDiameter_mm: number }).annulusDiameter_mm);
    expect(diameters).toHaveLength(2);
    for (const diameter of diameters) expect(diameter).toBeGreaterThan(0);
    expect(diameters[0]).not.toBe(diameters[1]);
  }, 120_000);

  it('runs one simulation per instance on its shape and gives its outcomes in the table and the CSV', async () => {
    const created = await member.browser.postJson(trialsPath(), body());
    expect(created.status).toBe(201);
    const trial = await json<TrialDetail>(created);
    expect(trial.cohort).toBeNull();
    expect(trial.ssm).toEqual({ id: ssm.id, name: ssm.name });
    expect(trial.patients.map((p) => [p.patientId, p.instance])).toEqual([
      [instances[0]!.id, { name: 'Mean root', shape: 'mean' }],
      [instances[1]!.id, { name: 'Wide root', shape: '2' }],
    ]);
    expect(await eventsOf(server, 'trial', trial.id)).toMatchObject([
      { action: 'trial.started', after: { name: 'Shapes trial', ssmId: ssm.id, patients: 2 } },
    ]);
    const finished = await waitForTrial(member.browser, `${trialsPath()}/${trial.id}`, (t) => t.status !== 'running');
    expect(finished.counts, JSON.stringify(finished.patients.map((p) => p.error))).toMatchObject({
      total: 2,
      done: 2,
    });
    for (const [i, p] of finished.patients.entries()) {
      expect(p.simulationStatus).toBe('completed');
      expect(p.outcomes!.peak_von_mises_stress).toBeGreaterThan(0);
      // The gap is measured against a cohort patient's organs: a shape's is null with the reason.
      expect(p.outcomes!.paravalvular_gap_area).toBeNull();
      expect(p.outcomeNotes.paravalvular_gap_area).toMatch(/shape has only its aortic root/);
      // The trial's room is on the SSM, on the instance's shape, with the device placed by the rule.
      const room = await json<Room>(await guest.browser.get(`${projectPath()}/rooms/${p.roomId}`));
      expect(room.subject).toEqual({ kind: 'ssm', ssmId: ssm.id });
      expect(room.name).toBe(`Shapes trial – ${instances[i]!.name}`);
      const scene = await json<{ view: { phase: string }; placements: unknown[] }>(
        await guest.browser.get(`${projectPath()}/rooms/${p.roomId}/scene`),
      );
      expect(scene.view.phase).toBe(p.instance!.shape);
      expect(scene.placements).toHaveLength(1);
    }
    // The trial's own rooms are not named instances of the model.
    const setup = await json<TrialSetup>(await guest.browser.get(`${trialsPath()}/setup`));
    expect(setup.ssms).toEqual([{ id: ssm.id, name: ssm.name, instances: 2 }]);

    const csv = readCsv(await (await guest.browser.get(`${trialsPath()}/${trial.id}/outcomes.csv`)).text());
    expect(csv[0]!.slice(0, 3)).toEqual(['Instance', 'Shape', 'Status']);
    expect(csv.slice(1).map((row) => row.slice(0, 3))).toEqual([
      ['Mean root', 'mean', 'done'],
      ['Wide root', '2', 'done'],
    ]);
    const stress = csv[0]!.indexOf('Peak von Mises stress (MPa)');
    expect(Number(csv[1]![stress])).toBe(finished.patients[0]!.outcomes!.peak_von_mises_stress);
    // No population view and no cohort report for shapes: said in words.
    expect(await errorOf(await guest.browser.get(`${trialsPath()}/${trial.id}/outcomes`))).toMatchObject({
      status: 409,
      code: 'trial_not_on_cohort',
    });
    expect(await errorOf(await member.browser.postJson(`${trialsPath()}/${trial.id}/reports`, {}))).toMatchObject({
      status: 409,
      code: 'trial_report_unavailable',
    });
  }, 300_000);
});
