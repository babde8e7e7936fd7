import { createHash } from 'node:crypto';
import type { TrialDetail, TrialList, TrialReport } from '@insilico/contracts';
import { writeBinaryStl } from '@insilico/mesh';
import { ringDeviceMesh } from '@insilico/scenarios';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialProject, waitForReport, waitForTrial } from '../../../test/fixtures/trial.fixtures';
import { errorOf, json, send, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { insertVersionWithModel } from '../../../test/factories/room-rows';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { domainEvents, rooms, simulations } from '../../db/schema';

/**
 * Device CI and the end of a trial (issue 17): acceptance criteria and the automatic re-run switch (PATCH), a new
 * device version on the project re-runs the flagged trial once, the report (PDF) stored once and read back the same,
 * and delete (cancels the trial's running runs, keeps its rooms). Each change writes its event; a guest is refused.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
let outsider: Person;
let deviceId = '';
let projectId = '';
let cohortId = '';
let versionId = '';
let trialId = '';

const trialsPath = () => `/api/devices/${deviceId}/projects/${projectId}/trials`;

const waitFor = (id: string, done: (t: TrialDetail) => boolean) =>
  waitForTrial(member.browser, `${trialsPath()}/${id}`, done);

const eventsOf = (id: string) =>
  server.context.db.orm
    .select()
    .from(domainEvents)
    .where(and(eq(domainEvents.objectType, 'trial'), eq(domainEvents.objectId, id)))
    .orderBy(asc(domainEvents.id));

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, member, guest, deviceId, projectId, cohortId, versionId } = await trialProject(server, 'CI cohort'));
  outsider = await signedIn(server);
  const created = await member.browser.postJson(trialsPath(), {
    name: 'Ring valve CI',
    cohortId,
    versionId,
    kind: 'solid',
    resolution: 'test',
    placement: { landmark: 'aortic_annulus', depth_mm: 2 },
  });
  expect(created.status).toBe(201);
  trialId = (await json<TrialDetail>(created)).id;
  await waitFor(trialId, (t) => t.status !== 'running');
}, 480_000);
afterAll(async () => {
  await server?.stop();
});

describe('acceptance criteria and automatic re-run (PATCH)', () => {
  it('checks the criteria on the server, nothing changed on a refusal', async () => {
    const path = `${trialsPath()}/${trialId}`;
    const cases: [unknown, number, RegExp][] = [
      [{ acceptance: { pressure_drop: { min: null, max: 20 } } }, 422, /A solid trial has no outcome pressure_drop/],
      [{ acceptance: { final_ovality: { min: 10, max: 5 } } }, 400, /lower bound must not exceed the upper one/],
      [{ acceptance: { final_ovality: { min: null, max: null } } }, 400, /lower or an upper bound/],
      [{ acceptance: { final_ovality: { min: null, max: 'ten' } } }, 400, /must be a number/],
      [{}, 400, /Send the acceptance criteria or autoRerun/],
      [{ autoRerun: 'yes' }, 400, /./],
    ];
    for (const [payload, status, message] of cases) {
      const refused = await send(member.browser, 'PATCH', path, payload);
      expect(refused.status, JSON.stringify(payload)).toBe(status);
      expect((await errorOf(refused)).message).toMatch(message);
    }
    expect((await send(guest.browser, 'PATCH', path, { autoRerun: true })).status).toBe(403);
    expect((await send(outsider.browser, 'PATCH', path, { autoRerun: true })).status).toBe(404);
    const trial = await json<TrialDetail>(await member.browser.get(path));
    expect([trial.acceptance, trial.autoRerun]).toEqual([{}, false]);
  });

  it('stores the criteria and the switch with their event', async () => {
    const path = `${trialsPath()}/${trialId}`;
    const acceptance = { final_ovality: { min: null, max: 10 }, peak_von_mises_stress: { min: 0, max: 1e6 } };
    const saved = await send(member.browser, 'PATCH', path, { acceptance, autoRerun: true });
    expect(saved.status).toBe(200);
    const trial = await json<TrialDetail>(saved);
    expect([trial.acceptance, trial.autoRerun]).toEqual([acceptance, true]);
    const last = (await eventsOf(trialId)).at(-1)!;
    expect(last.action).toBe('trial.settings_changed');
    expect(last.before).toMatchObject({ acceptance: {}, autoRerun: false });
    expect(last.after).toEqual({ acceptance, autoRerun: true });
  });
});

describe('a new device version on the project', () => {
  it('re-runs a flagged trial on it once, as its creator, and moves the flag to the re-run', async () => {
    const v2 = (
      await insertVersionWithModel(server, deviceId, {
        name: 'Ring valve v2',
        status: 'ready',
        stl: writeBinaryStl(ringDeviceMesh(8.5, 1.2)),
      })
    ).versionId;
    const added = await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/device-versions`, {
      versionId: v2,
    });
    expect(added.status, await added.clone().text()).toBe(200);
    const list = await json<TrialList>(await member.browser.get(trialsPath()));
    const rerun = list.items.find((t) => t.basedOnTrialId === trialId)!;
    expect(rerun).toBeDefined();
    expect(rerun.name).toBe('Ring valve CI – Ring valve v2');
    expect(rerun.deviceVersion).toEqual({ id: v2, name: 'Ring valve v2' });
    expect(rerun.createdBy?.id).toBe(member.id);
    expect([rerun.autoRerun, rerun.acceptance]).toEqual([true, list.items.find((t) => t.id === trialId)!.acceptance]);
    expect(list.items.find((t) => t.id === trialId)!.autoRerun).toBe(false);
    // Once: the same version again (a retried processing job) makes no second re-run.
    await server.context.trials.versionReady(projectId, v2);
    const again = await json<TrialList>(await member.browser.get(trialsPath()));
    expect(again.items.filter((t) => t.deviceVersion.id === v2)).toHaveLength(1);
  });
});

describe('delete', () => {
  it('refuses a guest, then cancels the running runs, keeps the rooms and records the event', async () => {
    // The automatic re-run has just started: its patients are queued or running.
    const running = (await json<TrialList>(await member.browser.get(trialsPath()))).items.find(
      (t) => t.basedOnTrialId === trialId,
    )!;
    const path = `${trialsPath()}/${running.id}`;
    expect((await send(guest.browser, 'DELETE', path)).status).toBe(403);
    expect((await send(outsider.browser, 'DELETE', path)).status).toBe(404);
    // Let at least one run exist, so that there is something to cancel.
    const withRun = await waitFor(running.id, (t) => t.patients.some((p) => p.simulationId !== null));
    const deleted = await send(member.browser, 'DELETE', path);
    expect(deleted.status).toBe(204);
    expect((await member.browser.get(path)).status).toBe(404);
    expect((await send(member.browser, 'DELETE', path)).status).toBe(404);
    const runIds = withRun.patients.flatMap((p) => (p.simulationId ? [p.simulationId] : []));
    // Preparations still in flight see the trial gone and cancel the run they made.
    const deadline = Date.now() + 60_000;
    let runs: { status: string; roomId: string }[] = [];
    for (;;) {
      runs = await server.context.db.orm
        .select({ status: simulations.status, roomId: simulations.roomId })
        .from(simulations)
        .where(inArray(simulations.id, runIds));
      if (runs.every((r) => r.status !== 'queued' && r.status !== 'running') || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(runs.every((r) => r.status === 'cancelled' || r.status === 'completed')).toBe(true);
    const kept = await server.context.db.orm
      .select({ id: rooms.id })
      .from(rooms)
      .where(
        inArray(
          rooms.id,
          runs.map((r) => r.roomId),
        ),
      );
    expect(kept).toHaveLength(runs.length);
    const last = (await eventsOf(running.id)).at(-1)!;
    expect(last.action).toBe('trial.deleted');
    expect(last.actorId).toBe(member.id);
    expect(last.before).toMatchObject({ name: running.name });
  }, 120_000);
});

describe('the report (PDF)', () => {
  it('is made by a job, stored once and reads the same again', async () => {
    const reports = `${trialsPath()}/${trialId}/reports`;
    expect((await outsider.browser.postJson(reports, {})).status).toBe(404);
    // A guest who sees the trial may have its report.
    const requested = await guest.browser.postJson(reports, {});
    expect(requested.status).toBe(202);
    const report = await json<TrialReport>(requested);
    expect(report.status).toBe('queued');
    expect(report.url).toBeNull();
    expect((await member.browser.get(`${reports}/${report.id}/pdf`)).status).toBe(404);
    const ready = await waitForReport(member.browser, reports, report.id);
    expect(ready?.status, ready?.error ?? '').toBe('ready');
    const first = await member.browser.get(ready!.url!);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(first.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Ring-valve-CI-report-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBe(ready!.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(ready!.sha256);
    // Changing the trial afterwards does not change a stored report.
    await send(member.browser, 'PATCH', `${trialsPath()}/${trialId}`, { acceptance: {} });
    const again = Buffer.from(await (await guest.browser.get(ready!.url!)).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
    const actions = (await eventsOf(trialId)).map((e) => e.action);
    expect(actions.filter((a) => a === 'trial.report_requested')).toHaveLength(1);
  }, 180_000);
});
