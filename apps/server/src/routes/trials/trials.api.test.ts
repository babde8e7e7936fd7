import {
  type NotificationList,
  simulationResolutionMessage,
  trialNameTakenMessage,
  type TrialDetail,
  type TrialList,
  type TrialOutcomeColumns,
} from '@insilico/contracts';
import { readCsv } from '@insilico/contracts/csv';
import { writeBinaryStl } from '@insilico/mesh';
import { and, asc, eq } from 'drizzle-orm';
import { ringDeviceMesh } from '@insilico/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialProject, waitForTrial } from '../../../test/fixtures/trial.fixtures';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';
import { domainEvents, jobRuns, resultSnapshots, simulations } from '../../db/schema';
import { resultsSnapshotIdOf } from '../../services/result-snapshots';
import { eventsOf } from '../../../test/helpers/domain-events';
import { insertVersionWithModel } from '../../../test/factories/room-rows';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';

/**
 * The trial API (issue 17): a fluid trial at the test resolution over a 5-patient cohort fans out to one run per
 * patient and ends with outcomes per patient; a placement rule no patient meets lists every patient with its reason
 * and nothing runs; retry with a corrected rule runs the failed ones only; cancel; every refusal with nothing stored;
 * a guest on the project views and is refused the rest.
 */
let server: TestServer;
let member: Person;
let guest: Person;
let deviceId = '';
let projectId = '';
let cohortId = '';
let versionId = '';

const trialsPath = () => `/api/devices/${deviceId}/projects/${projectId}/trials`;
const body = (over: Record<string, unknown> = {}) => ({
  name: 'Ring valve trial',
  cohortId,
  versionId,
  kind: 'fluid',
  resolution: 'test',
  placement: { landmark: 'aortic_annulus', depth_mm: 2 },
  ...over,
});

/** A user-defined outcome that must equal the kind's peak von Mises stress (the same frames, the same reductions). */
const ownStress = {
  source: 'object',
  label: 'Device stress, own',
  field: 'von_mises_stress',
  particles: 'max',
  over: 'max',
};
const ownDisplacement = {
  source: 'object',
  label: 'Mean displacement at the end',
  field: 'displacement',
  particles: 'mean',
  over: 'last',
};

const waitFor = (id: string, done: (t: TrialDetail) => boolean) =>
  waitForTrial(member.browser, `${trialsPath()}/${id}`, done);

async function trialCount(): Promise<number> {
  return (await json<TrialList>(await member.browser.get(trialsPath()))).items.length;
}

beforeAll(async () => {
  server = await startTestServer();
  ({ member, guest, deviceId, projectId, cohortId, versionId } = await trialProject(server, 'Trial cohort'));
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

describe('refusals (nothing stored)', () => {
  it('checks the set-up on the server', async () => {
    const cases: [Record<string, unknown>, number, RegExp | string][] = [
      [{ cohortId: '00000000-0000-4000-8000-000000000000' }, 422, 'Choose one of the project’s cohorts.'],
      [{ versionId: '00000000-0000-4000-8000-000000000000' }, 422, 'Choose a device version of this project.'],
      [{ parameters: { heartRate_bpm: 900 } }, 422, /Heart rate must lie between/],
      [{ parameters: { youngsModulus_GPa: 3 } }, 422, /is not a parameter of a fluid simulation/],
      [{ placement: { landmark: 'aortic_annulus', depth_mm: 40 } }, 400, /depth offset must lie between -20 and 20 mm/],
      [{ placement: { landmark: 'lv_apex', depth_mm: 0 } }, 400, /Choose the aortic, mitral/],
      [
        { placement: { landmark: 'aortic_annulus', depth_mm: 0, annulusRange_mm: { min: 30, max: 20 } } },
        400,
        /must not exceed the largest/,
      ],
      // The user's outcomes: checked against the kind's catalogue, names unique, never code.
      [
        { kind: 'solid', customOutcomes: [{ ...ownStress, field: 'pressure' }] },
        422,
        'A solid simulation stores no field pressure. Choose one of: von_mises_stress, von_mises_strain, displacement, velocity.',
      ],
      [
        {
          kind: 'solid',
          customOutcomes: [{ source: 'plane', label: 'Flow', plane: 'upstream', quantity: 'flow_rate', over: 'mean' }],
        },
        422,
        'A solid simulation has no monitor planes: choose a field of the device.',
      ],
      [
        { kind: 'solid', customOutcomes: [{ ...ownStress, label: 'peak VON MISES stress' }] },
        422,
        'The trial already has an outcome named peak VON MISES stress.',
      ],
      [{ kind: 'solid', customOutcomes: [{ ...ownStress, over: 'median' }] }, 400, /Choose max, min, mean or last/],
      [{ kind: 'solid', customOutcomes: [{ ...ownStress, expression: 'max(stress)' }] }, 400, /./],
      [
        { kind: 'solid', customOutcomes: Array.from({ length: 7 }, (_, i) => ({ ...ownStress, label: `S${i}` })) },
        400,
        /at most 6 outcomes of your own/,
      ],
    ];
    for (const [over, status, message] of cases) {
      const refused = await member.browser.postJson(trialsPath(), body(over));
      expect(refused.status, JSON.stringify(over)).toBe(status);
      const error = await errorOf(refused);
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    }
    await server.context.simulations.setTestResolution(deviceId, false);
    try {
      const refused = await member.browser.postJson(trialsPath(), body());
      expect(refused.status).toBe(422);
      expect((await errorOf(refused)).message).toBe(simulationResolutionMessage);
    } finally {
      await server.context.simulations.setTestResolution(deviceId, true);
    }
    expect(await trialCount()).toBe(0);
  });

  it('lets a guest view trials but not start, cancel or retry one', async () => {
    const list = await json<TrialList>(await guest.browser.get(trialsPath()));
    expect(list.canRun).toBe(false);
    expect((await guest.browser.postJson(trialsPath(), body())).status).toBe(403);
  });
});

describe('a trial over the cohort', () => {
  let trialId = '';

  // The solid kind at the test resolution (30 steps of 150 particles) keeps the fan-out of five runs quick; the fluid
  // outcomes of a real run are the trial journey's (apps/web/e2e/trials.spec.ts).
  it('fans out one run per patient, shows progress and ends with outcomes per patient', async () => {
    const created = await member.browser.postJson(
      trialsPath(),
      body({ kind: 'solid', customOutcomes: [ownStress, ownDisplacement] }),
    );
    expect(created.status).toBe(201);
    const trial = await json<TrialDetail>(created);
    trialId = trial.id;
    expect(trial.counts.total).toBe(5);
    expect(trial.patients).toHaveLength(5);
    expect(trial.outcomes.map((o) => o.key)).toEqual([
      'peak_von_mises_stress',
      'final_von_mises_stress',
      'peak_von_mises_strain',
      'max_displacement',
      'peak_contact_pressure',
      'peak_line_load',
      'final_device_diameter',
      'final_ovality',
      'device_migration',
      'paravalvular_gap_area',
      'user_1',
      'user_2',
    ]);
    expect(trial.outcomes.slice(-2).map((o) => [o.label, o.unit, o.description])).toEqual([
      [
        'Device stress, own',
        'MPa',
        'Largest over the saved timesteps of the largest von Mises stress in the device over its particles (your outcome).',
      ],
      [
        'Mean displacement at the end',
        'mm',
        'At the last saved timestep, the mean displacement of the device over its particles (your outcome).',
      ],
    ]);
    const taken = await member.browser.postJson(trialsPath(), body({ name: 'ring VALVE trial' }));
    expect(taken.status).toBe(409);
    expect((await errorOf(taken)).message).toBe(trialNameTakenMessage);

    const finished = await waitFor(trialId, (t) => t.status !== 'running');
    expect(finished.status).toBe('completed');
    expect(finished.counts).toMatchObject({ total: 5, done: 5, failed: 0, queued: 0, running: 0 });
    for (const p of finished.patients) {
      expect(p.status).toBe('done');
      expect(p.roomId).not.toBeNull();
      expect(p.simulationStatus).toBe('completed');
      // Outcomes are numbers or null with a reason, never invented.
      for (const o of finished.outcomes) {
        const value = p.outcomes![o.key];
        if (value === null) expect(p.outcomeNotes[o.key]).toBeTruthy();
        else expect(Number.isFinite(value)).toBe(true);
      }
      // The pressure load stresses and moves the held device.
      expect(p.outcomes!.peak_von_mises_stress).toBeGreaterThan(0);
      expect(p.outcomes!.max_displacement).toBeGreaterThan(0);
      // The crimped device opens into the anatomy: a diameter in millimetres, read from the expansion's monitors.
      expect(p.outcomes!.final_device_diameter).toBeGreaterThan(1);
      expect(p.outcomes!.final_device_diameter).toBeLessThan(60);
      // Measured at the annulus against the patient's aortic root: an area, never above the annulus's own.
      const gap = p.outcomes!.paravalvular_gap_area;
      expect(gap, p.outcomeNotes.paravalvular_gap_area).not.toBeNull();
      expect(gap!).toBeGreaterThanOrEqual(0);
      expect(gap!).toBeLessThan(Math.PI * 20 ** 2);
      // The user's outcomes, read from the same stored frames: the largest of the largest is the kind's peak stress.
      expect(p.outcomes!.user_1).toBe(p.outcomes!.peak_von_mises_stress);
      expect(p.outcomes!.user_2).toBeGreaterThan(0);
      expect(p.outcomes!.user_2).toBeLessThanOrEqual(p.outcomes!.max_displacement!);
    }
    // The creator hears once, from the trial, not once per patient's run.
    const notifications = await json<NotificationList>(await member.browser.get('/api/notifications?limit=50'));
    const kinds = notifications.items.map((n) => n.kind);
    expect(kinds.filter((k) => k === 'trial.completed')).toHaveLength(1);
    expect(kinds.filter((k) => k.startsWith('simulation.'))).toHaveLength(0);
    const told = notifications.items.find((n) => n.kind === 'trial.completed')!;
    expect([told.title, told.body]).toEqual(['Trial Ring valve trial has finished', '5 of 5 patients done.']);
    expect(told.link).toBe(`/projects/trial?project=${projectId}&trial=${trialId}&device=${deviceId}`);
    // The guest sees it, but may not retry or cancel.
    expect((await guest.browser.get(`${trialsPath()}/${trialId}`)).status).toBe(200);
    expect((await guest.browser.postJson(`${trialsPath()}/${trialId}/cancel`, {})).status).toBe(403);
    expect((await guest.browser.postJson(`${trialsPath()}/${trialId}/retry`, {})).status).toBe(403);
    // Nothing to retry or cancel in a finished trial.
    expect((await member.browser.postJson(`${trialsPath()}/${trialId}/retry`, {})).status).toBe(409);
    expect((await member.browser.postJson(`${trialsPath()}/${trialId}/cancel`, {})).status).toBe(409);
  }, 450_000);

  it('gives the outcomes as cohort parameters, one nullable value per patient', async () => {
    const columns = await json<TrialOutcomeColumns>(await guest.browser.get(`${trialsPath()}/${trialId}/outcomes`));
    expect(columns.ids).toHaveLength(5);
    expect(columns.outcomes[0]!.parameter).toBe(`trial.${trialId}.peak_von_mises_stress`);
    expect(columns.values).toHaveLength(columns.outcomes.length);
    const trial = await json<TrialDetail>(await member.browser.get(`${trialsPath()}/${trialId}`));
    const byId = new Map(trial.patients.map((p) => [p.patientId, p.outcomes]));
    columns.outcomes.forEach((outcome, k) =>
      columns.ids.forEach((id, i) => expect(columns.values[k]![i]).toBe(byId.get(id)![outcome.key])),
    );
    // Each patient's completed run (room and simulation) beside its values: the extreme cases open it.
    expect(columns.runs).toEqual(
      columns.ids.map((id) => {
        const p = trial.patients.find((q) => q.patientId === id)!;
        return { roomId: p.roomId, simulationId: p.simulationId };
      }),
    );
  });

  it('lets an analysis of the cohort use the outcomes as parameters, and no other trial’s', async () => {
    const analyses = `/api/devices/${deviceId}/projects/${projectId}/analyses`;
    const outcome = `trial.${trialId}.peak_von_mises_stress`;
    const created = await member.browser.postJson(analyses, {
      cohortId,
      parameters: ['aorticAnnulusDiameter_mm', outcome],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await json<{ parameters: string[] }>(created)).parameters).toEqual(['aorticAnnulusDiameter_mm', outcome]);
    const unknown = `trial.00000000-0000-4000-8000-000000000000.pressure_drop`;
    const refused = await member.browser.postJson(analyses, { cohortId, parameters: [unknown] });
    expect(refused.status).toBe(422);
    expect((await errorOf(refused)).message).toBe(`These parameters are not known: ${unknown}.`);
  });

  it('changes the outcomes of the user’s own after the run: read again from the saved outputs, never simulated', async () => {
    const one = `${trialsPath()}/${trialId}`;
    const before = await json<TrialDetail>(await member.browser.get(one));
    const runs = async () => (await server.context.db.orm.select({ id: simulations.id }).from(simulations)).length;
    const runsBefore = await runs();
    // A criterion on the displacement: it goes when that outcome's unit changes.
    expect((await send(member.browser, 'PATCH', one, { acceptance: { user_2: { min: null, max: 5 } } })).status).toBe(
      200,
    );
    const put = (outcomes: unknown[], who = member) => send(who.browser, 'PUT', `${one}/custom-outcomes`, { outcomes });
    const speed = {
      source: 'object',
      label: 'Mean speed at the end',
      field: 'velocity',
      particles: 'mean',
      over: 'last',
    };
    const least = {
      source: 'object',
      label: 'Smallest stress',
      field: 'von_mises_stress',
      particles: 'min',
      over: 'min',
    };

    // Refusals change nothing.
    const refusals: [unknown[], number, RegExp | string, Person?][] = [
      [[{ key: 'user_9', definition: ownStress }], 422, /has no outcome user_9 of your own now/],
      [[{ key: null, definition: { ...least, label: 'peak von MISES stress' } }], 422, /already has an outcome named/],
      [[{ key: null, definition: { ...least, field: 'pressure' } }], 422, /stores no field pressure/],
      [[{ key: null, definition: { ...least, expression: 'x' } }], 400, /./],
      [
        [
          { key: 'user_1', definition: ownStress },
          { key: 'user_2', definition: ownDisplacement },
        ],
        409,
        'Nothing changed in the outcomes of your own.',
      ],
      [[], 403, /./, guest],
    ];
    for (const [outcomes, status, message, who] of refusals) {
      const refused = await put(outcomes, who);
      expect(refused.status, JSON.stringify(outcomes)).toBe(status);
      expect((await errorOf(refused)).message).toMatch(message);
    }
    expect((await json<TrialDetail>(await member.browser.get(one))).customOutcomes).toEqual(before.customOutcomes);

    // Rename user_1, change user_2's computation (version 2), add one (user_3).
    const changed = await put([
      { key: 'user_1', definition: { ...ownStress, label: 'Peak stress, own' } },
      { key: 'user_2', definition: speed },
      { key: null, definition: least },
    ]);
    expect(changed.status, await changed.clone().text()).toBe(200);
    const answer = await json<TrialDetail>(changed);
    expect(answer.customOutcomes.map((o) => [o.key, o.version, o.definition.label])).toEqual([
      ['user_1', 1, 'Peak stress, own'],
      ['user_2', 2, 'Mean speed at the end'],
      ['user_3', 1, 'Smallest stress'],
    ]);
    expect(answer.acceptance).toEqual({});
    expect(answer.outcomeRefresh).not.toBeNull();
    const read = await waitFor(trialId, (t) => t.outcomeRefresh?.status === 'completed');
    expect(await runs()).toBe(runsBefore);
    for (const p of read.patients) {
      const was = before.patients.find((b) => b.patientId === p.patientId)!;
      expect(p.simulationId).toBe(was.simulationId);
      expect(p.outcomes!.user_1).toBe(was.outcomes!.user_1);
      expect(p.outcomes!.peak_von_mises_stress).toBe(was.outcomes!.peak_von_mises_stress);
      expect(p.outcomeVersions).toMatchObject({ user_1: 1, user_2: 2, user_3: 1 });
      expect(p.outcomes!.user_2).toBeGreaterThanOrEqual(0);
      expect(p.outcomes!.user_3).toBeGreaterThanOrEqual(0);
      expect(p.outcomes!.user_3).toBeLessThanOrEqual(p.outcomes!.user_1!);
      // The displacement value of version 1 is kept beside the version it came from.
      expect(p.earlierOutcomes).toEqual([{ key: 'user_2', version: 1, value: was.outcomes!.user_2 }]);
    }
    expect(read.customOutcomeHistory.map((v) => [v.key, v.version, v.until === null])).toEqual([
      ['user_1', 1, true],
      ['user_2', 1, false],
      ['user_2', 2, true],
      ['user_3', 1, true],
    ]);

    // Remove user_1 and add one: its values are kept, its key is not given again.
    const removed = await json<TrialDetail>(
      await put([
        { key: 'user_2', definition: speed },
        { key: 'user_3', definition: least },
        { key: null, definition: { ...ownStress, label: 'Stress again' } },
      ]),
    );
    expect(removed.customOutcomes.map((o) => o.key)).toEqual(['user_2', 'user_3', 'user_4']);
    const again = await waitFor(trialId, (t) => t.patients.every((p) => p.outcomeVersions.user_4 === 1));
    for (const p of again.patients) {
      expect(p.outcomes).not.toHaveProperty('user_1');
      expect(p.outcomes!.user_4).toBe(p.outcomes!.peak_von_mises_stress);
      expect(p.earlierOutcomes).toContainEqual({ key: 'user_1', version: 1, value: p.outcomes!.peak_von_mises_stress });
    }
    const columns = await json<TrialOutcomeColumns>(await member.browser.get(`${one}/outcomes`));
    expect(columns.outcomes.map((o) => o.key).slice(-3)).toEqual(['user_2', 'user_3', 'user_4']);
    // The CSV: the outcomes now, then the earlier versions' values kept with each patient.
    const csv = await guest.browser.get(`${one}/outcomes.csv`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = readCsv(await csv.text());
    expect(rows).toHaveLength(6);
    expect(rows[0]!.slice(-5)).toEqual([
      'Mean speed at the end (m/s), version 2',
      'Smallest stress (MPa)',
      'Stress again (MPa)',
      'Peak stress, own (MPa), version 1 (earlier)',
      'Mean displacement at the end (mm), version 1 (earlier)',
    ]);
    for (const p of again.patients) {
      const row = rows.find((r) => r[0] === p.patientId)!;
      expect(Number(row.at(-2))).toBe(p.earlierOutcomes.find((e) => e.key === 'user_1')!.value);
      expect(Number(row.at(-1))).toBe(p.earlierOutcomes.find((e) => e.key === 'user_2')!.value);
    }
    expect(await runs()).toBe(runsBefore);

    // The audit trail: each change with its before and after, each reading by the system; the changer is told.
    const actions = (await eventsOf(server, 'trial', trialId)).map((e) => e.action);
    expect(actions.filter((a) => a === 'trial.outcomes_changed')).toHaveLength(2);
    expect(actions.filter((a) => a === 'trial.outcomes_read').length).toBeGreaterThanOrEqual(2);
    const notifications = await json<NotificationList>(await member.browser.get('/api/notifications?limit=50'));
    const told = notifications.items.find((n) => n.kind === 'trial.outcomes_read')!;
    expect(told.title).toBe('The outcomes of trial Ring valve trial were read again');
    expect(told.body).toBe('5 of 5 patients read from their saved outputs.');
  }, 240_000);
});

describe('device CI', () => {
  it('re-runs a trial’s set-up on another device version, linked to it for comparison', async () => {
    const first = (await json<TrialList>(await member.browser.get(trialsPath()))).items.find(
      (t) => t.name === 'Ring valve trial',
    )!;
    const v2 = (
      await insertVersionWithModel(server, deviceId, {
        name: 'Ring valve v2',
        status: 'ready',
        projectId,
        stl: writeBinaryStl(ringDeviceMesh(8.5, 1.2)),
      })
    ).versionId;
    const rerunPath = `${trialsPath()}/${first.id}/rerun`;
    expect((await guest.browser.postJson(rerunPath, { versionId: v2, name: 'Ring valve v2 trial' })).status).toBe(403);
    const taken = await member.browser.postJson(rerunPath, { versionId: v2, name: first.name });
    expect(taken.status).toBe(409);
    const created = await member.browser.postJson(rerunPath, { versionId: v2, name: 'Ring valve v2 trial' });
    expect(created.status).toBe(201);
    const rerun = await json<TrialDetail>(created);
    expect(rerun.basedOnTrialId).toBe(first.id);
    expect(rerun.deviceVersion).toEqual({ id: v2, name: 'Ring valve v2' });
    expect([rerun.kind, rerun.resolution, rerun.placement]).toEqual([first.kind, first.resolution, first.placement]);
    const finished = await waitFor(rerun.id, (t) => t.status !== 'running');
    expect(finished.counts.done).toBe(5);
    // The design history's evidence: the re-run's end records its comparison with the earlier version (the same
    // figures the trial page draws), in its event and its kept results.
    const before = await json<TrialDetail>(await member.browser.get(`${trialsPath()}/${first.id}`));
    const end = (await eventsOf(server, 'trial', rerun.id)).find((e) => e.action === 'trial.finished')!;
    const comparison = (end.after as { comparison: { basedOn: unknown; outcomes: Record<string, unknown>[] } })
      .comparison;
    expect(comparison.basedOn).toEqual({
      trialId: first.id,
      name: first.name,
      deviceVersionId: first.deviceVersion.id,
      deviceVersionName: first.deviceVersion.name,
    });
    const stress = comparison.outcomes.find((o) => o.key === 'peak_von_mises_stress')!;
    const differences = finished.patients.map(
      (p) =>
        p.outcomes!.peak_von_mises_stress! -
        before.patients.find((q) => q.patientId === p.patientId)!.outcomes!.peak_von_mises_stress!,
    );
    expect(stress).toMatchObject({ label: 'Peak von Mises stress', unit: 'MPa', paired: 5 });
    expect(stress.meanDifference).toBeCloseTo(differences.reduce((a, b) => a + b, 0) / 5, 6);
    const [kept] = await server.context.db.orm
      .select({ content: resultSnapshots.content })
      .from(resultSnapshots)
      .where(eq(resultSnapshots.id, resultsSnapshotIdOf(end.after)!));
    expect((kept!.content as { comparison: unknown }).comparison).toEqual(comparison);
  }, 450_000);
});

describe('a placement rule that fails, retried after a fix, and cancel', () => {
  it('lists every patient the rule fails for with the reason; retry with a corrected rule; cancel', async () => {
    const created = await member.browser.postJson(
      trialsPath(),
      body({
        name: 'Too small a size range',
        kind: 'solid',
        placement: { landmark: 'aortic_annulus', depth_mm: 0, annulusRange_mm: { min: 5, max: 6 } },
      }),
    );
    expect(created.status).toBe(201);
    const { id } = await json<TrialDetail>(created);
    const failed = await waitFor(id, (t) => t.status !== 'running');
    expect(failed.counts).toMatchObject({ total: 5, failed: 5, done: 0 });
    const first = { landmark: 'aortic_annulus', depth_mm: 0, annulusRange_mm: { min: 5, max: 6 } };
    for (const p of failed.patients) {
      expect(p.stage).toBe('placement');
      expect(p.error).toMatch(/^The aortic annulus measures \d+\.\d mm, outside the device’s size range 5–6 mm\.$/);
      expect(p.simulationId).toBeNull();
      // Each patient keeps the rule it was refused by.
      expect(p.placement).toEqual(first);
    }
    // An invalid correction is refused in words; nothing is queued, the trial and its patients are as they were.
    const patientJobs = async () =>
      (
        await server.context.db.orm
          .select({ data: jobRuns.data })
          .from(jobRuns)
          .where(eq(jobRuns.kind, 'trial.patient'))
      ).filter((j) => (j.data as { trialId?: string }).trialId === id).length;
    const jobsBefore = await patientJobs();
    for (const [placement, message] of [
      [{ landmark: 'aortic_annulus', depth_mm: 99 }, 'The depth offset must lie between -20 and 20 mm.'],
      [
        { landmark: 'aortic_annulus', depth_mm: 0, annulusRange_mm: { min: 30, max: 20 } },
        'The smallest annulus size must not exceed the largest.',
      ],
      [{ landmark: 'aortic_annulus', depth_mm: null }, 'The depth offset must be a number of millimetres.'],
    ] as const) {
      const badFix = await member.browser.postJson(`${trialsPath()}/${id}/retry`, { placement });
      expect(badFix.status).toBe(400);
      expect((await errorOf(badFix)).message).toContain(message);
    }
    expect(await patientJobs()).toBe(jobsBefore);
    const unchanged = await json<TrialDetail>(await member.browser.get(`${trialsPath()}/${id}`));
    expect(unchanged.placement).toEqual(first);
    expect(unchanged.counts).toMatchObject({ failed: 5, queued: 0 });
    expect(unchanged.patients.map((p) => p.placement)).toEqual(failed.patients.map(() => first));
    const corrected = { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: { min: 5, max: 60 } };
    const retried = await member.browser.postJson(`${trialsPath()}/${id}/retry`, { placement: corrected });
    expect(retried.status).toBe(200);
    const running = await json<TrialDetail>(retried);
    expect(running.status).toBe('running');
    expect(running.counts.failed).toBe(0);
    expect(running.placement).toEqual(corrected);
    expect(await patientJobs()).toBe(jobsBefore + 5);
    // Each retried patient is placed again by the corrected rule, and its record says so (the rule it failed by is
    // kept in the trial.retried event below).
    const placed = await waitFor(id, (t) => t.patients.every((p) => p.placement !== null));
    expect(placed.patients.map((p) => p.placement)).toEqual(placed.patients.map(() => corrected));
    const cancelled = await member.browser.postJson(`${trialsPath()}/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect((await json<TrialDetail>(cancelled)).status).toBe('cancelled');
    // Once the preparations still in flight have seen the cancel, nothing is queued or running.
    const settledTrial = await waitFor(id, (t) => t.counts.queued + t.counts.running === 0);
    expect(settledTrial.status).toBe('cancelled');
    expect(settledTrial.counts.cancelled + settledTrial.counts.done).toBe(5);
    // The audit trail holds one event per change, in order, the retry with the rule before and after (issue 20).
    const events = await server.context.db.orm
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.objectType, 'trial'), eq(domainEvents.objectId, id)))
      .orderBy(asc(domainEvents.id));
    const byPeople = events.filter((e) => e.actorId !== null);
    expect(byPeople.map((e) => e.action)).toEqual(['trial.started', 'trial.retried', 'trial.cancelled']);
    expect(byPeople.every((e) => e.actorId === member.id && e.projectId === projectId)).toBe(true);
    // Between them the system's record of the first run's end (all five failed), for the member who started it.
    const bySystem = events.filter((e) => e.actorId === null);
    expect(bySystem[0]).toMatchObject({
      action: 'trial.finished',
      actorName: expect.stringMatching(/^System \(for .+\)$/),
      after: { patients: 5, done: 0, failed: 5, startedBy: member.id },
      requestId: expect.stringMatching(/^job:/),
    });
    expect((byPeople[1]!.before as { placement: unknown }).placement).toMatchObject({
      annulusRange_mm: { min: 5, max: 6 },
    });
    expect((byPeople[1]!.after as { placement: unknown }).placement).toMatchObject({
      annulusRange_mm: { min: 5, max: 60 },
    });
  }, 450_000);
});

describe('a depth offset beyond the modelled root (issue 17 follow-up)', () => {
  it('refuses every patient at placement with its root’s reach, and nothing runs', async () => {
    const belowLvot = { landmark: 'aortic_annulus', depth_mm: -15, annulusRange_mm: null };
    const created = await member.browser.postJson(
      trialsPath(),
      body({ name: 'Below the LVOT', kind: 'solid', placement: belowLvot }),
    );
    expect(created.status).toBe(201);
    const { id } = await json<TrialDetail>(created);
    const failed = await waitFor(id, (t) => t.status !== 'running');
    expect(failed.counts).toMatchObject({ total: 5, failed: 5, done: 0 });
    for (const p of failed.patients) {
      expect(p.stage).toBe('placement');
      // The virtual patients' LVOT ends 10 mm below the annulus (the anatomy's aortic root loft).
      expect(p.error).toMatch(
        /^The depth offset -15 mm puts the device’s centre outside this patient’s modelled aortic root, which reaches from 10\.0 mm below the aortic annulus \(the LVOT’s end\) to \d+\.\d mm above it\. Choose a depth offset within that reach\.$/,
      );
      expect(p.roomId).toBeNull();
      expect(p.simulationId).toBeNull();
      expect(p.placement).toEqual(belowLvot);
    }
  });
});
