import { createHash } from 'node:crypto';
import type { ResultSnapshot } from '@insilico/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  devices,
  domainEvents,
  jobRuns,
  measurementOrders,
  resultSnapshots,
  rooms,
  simulations,
  ssms,
  trials,
} from '../../db/schema';
import { canonicalJson } from '../../events/chain';
import { backfillNote } from '../../services/result-backfill';
import { ssmModelKey } from '../../services/ssm.service';
import { eventsOf } from '../../../test/helpers/domain-events';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { insertSimulation } from '../../../test/factories/simulation-rows';
import { insertTrialRow } from '../../../test/factories/trial-rows';
import { json, type Person } from '../../../test/fixtures/workspace.fixtures';

/**
 * Results snapshots for work finished before migration 0027 (issue 20 item 7, services/result-backfill.ts): old-style
 * finished rows (a simulation, a trial, a measurement order, a shape model) without snapshots get exactly one each,
 * taken by the system at the backfill and saying so, named by an event; a second run changes nothing, and work that
 * is not finished, or newer than the start, is left alone.
 */
let server: TestServer;
let admin: Person;
let deviceId = '';
let projectId = '';
let cohortId = '';
let before = new Date();
const old = new Date('2025-06-01T10:00:00Z');
const ids = { simulation: '', trial: '', measurement: '', ssm: '', failed: '', newer: '' };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function snapshotsOf(objectType: string, objectId: string) {
  return server.context.db.orm
    .select()
    .from(resultSnapshots)
    .where(and(eq(resultSnapshots.objectType, objectType), eq(resultSnapshots.objectId, objectId)));
}

/** The backfill enqueued by the server's start: done before this suite writes its old rows. */
async function startBackfillDone(): Promise<void> {
  const stop = Date.now() + 120_000;
  for (;;) {
    const runs = await server.context.db.orm.select().from(jobRuns).where(eq(jobRuns.kind, 'results.backfill'));
    if (runs.length > 0 && runs.every((run) => run.status === 'completed')) return;
    if (Date.now() > stop) throw new Error(`the start's backfill did not finish: ${JSON.stringify(runs)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  ({ server, admin, deviceId, projectId } = await projectWorld({ project: { team: ['admin'] } }));
  await startBackfillDone();
  const orm = server.context.db.orm;
  ids.trial = await insertTrialRow(server, { deviceId, projectId, name: 'Old trial', createdBy: admin.id });
  cohortId = (await orm.select().from(trials).where(eq(trials.id, ids.trial)))[0]!.cohortId!;
  await orm.update(trials).set({ createdAt: old }).where(eq(trials.id, ids.trial));
  // The trial's end as recorded before 0027: a `trial.finished` event that names no results.
  await orm.insert(domainEvents).values({
    action: 'trial.finished',
    objectType: 'trial',
    objectId: ids.trial,
    deviceId,
    projectId,
    after: { name: 'Old trial', patients: 0, done: 0, failed: 0, startedBy: admin.id },
  });
  const [room] = await orm
    .insert(rooms)
    .values({ projectId, name: 'Old room', cohortId, patientIndex: 0, createdBy: admin.id })
    .returning({ id: rooms.id });
  const roomId = room!.id;
  ids.simulation = await insertSimulation(server, { projectId, roomId, name: 'Old run', status: 'completed' });
  ids.failed = await insertSimulation(server, { projectId, roomId, name: 'Old failed run', status: 'failed' });
  for (const id of [ids.simulation, ids.failed])
    await orm
      .update(simulations)
      .set({ createdAt: old, finishedAt: old, createdBy: admin.id })
      .where(eq(simulations.id, id));
  const [order] = await orm
    .insert(measurementOrders)
    .values({
      deviceId,
      cohortId,
      status: 'ready',
      measurements: [],
      createdBy: admin.id,
      createdAt: old,
      readyAt: old,
    })
    .returning({ id: measurementOrders.id });
  ids.measurement = order!.id;
  const [ssm] = await orm
    .insert(ssms)
    .values({
      deviceId,
      projectId,
      name: 'Old model',
      configuration: { cohortIds: [cohortId] },
      configurationKey: `old-${cohortId}`,
      shapeCount: 5,
      status: 'ready',
      summary: { modes: [], quality: {} },
      createdBy: admin.id,
      createdAt: old,
      readyAt: old,
    })
    .returning({ id: ssms.id });
  ids.ssm = ssm!.id;
  const [device] = await orm.select().from(devices).where(eq(devices.id, deviceId));
  await server.context.blobs.put(device!.dataRegion, ssmModelKey(ids.ssm), new Uint8Array([1, 2, 3, 4]));
  // The backfill of a start before this moment; a run finished after it without a snapshot is not its business.
  before = new Date();
  ids.newer = await insertSimulation(server, { projectId, roomId, name: 'New run', status: 'completed' });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe('the results backfill', () => {
  it('keeps exactly one snapshot for each finished object without one, even twice at once, and nothing the next time', async () => {
    const startedAt = Date.now();
    // Two processes starting at once: each object is kept by one of them.
    const [one, other] = await Promise.all([
      server.context.resultBackfill.run(before),
      server.context.resultBackfill.run(before),
    ]);
    expect(one.kept + other.kept).toBe(4);
    expect([...one.skipped, ...other.skipped]).toEqual([]);
    const kinds = ['simulation', 'trial', 'measurement', 'ssm'] as const;
    const kept = new Map<string, string>();
    for (const objectType of kinds) {
      const objectId = ids[objectType];
      const rows = await snapshotsOf(objectType, objectId);
      expect(rows, objectType).toHaveLength(1);
      const snapshot = rows[0]!;
      expect(snapshot).toMatchObject({
        deviceId,
        projectId: objectType === 'measurement' ? null : projectId,
        revision: 1,
        codeVersion: server.context.config.version,
      });
      // Taken at the backfill, and saying so: not dated as if kept at the original finish.
      expect(snapshot.takenAt.getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
      const content = snapshot.content as { kind: string; backfilled: { at: string; note: string } };
      expect(content.kind).toBe(`${objectType}-results`);
      expect(content.backfilled.note).toBe(backfillNote);
      expect(new Date(content.backfilled.at).getTime()).toBeGreaterThan(old.getTime());
      expect(sha256(canonicalJson(snapshot.content))).toBe(snapshot.contentHash);
      const events = (await eventsOf(server, objectType, objectId)).filter(
        (event) => event.action === `${objectType}.results_backfilled`,
      );
      expect(events, objectType).toHaveLength(1);
      expect(events[0]).toMatchObject({ actorId: null, deviceId });
      expect(events[0]!.after).toMatchObject({
        backfilled: true,
        startedBy: admin.id,
        results: { snapshotId: snapshot.id, sha256: snapshot.contentHash },
      });
      kept.set(objectType, snapshot.id);
    }
    for (const untouched of [ids.failed, ids.newer]) expect(await snapshotsOf('simulation', untouched)).toHaveLength(0);

    const second = await server.context.resultBackfill.run(before);
    expect(second).toEqual({ kept: 0, skipped: [] });
    for (const objectType of kinds) {
      const rows = await snapshotsOf(objectType, ids[objectType]);
      expect(rows.map((row) => row.id)).toEqual([kept.get(objectType)]);
      const events = await eventsOf(server, objectType, ids[objectType]);
      expect(events.filter((event) => event.action === `${objectType}.results_backfilled`)).toHaveLength(1);
    }

    // Read like any kept results, with the object's permission.
    const response = await admin.browser.get(`/api/devices/${deviceId}/result-snapshots/${kept.get('trial')!}`);
    expect(response.status).toBe(200);
    expect(await json<ResultSnapshot>(response)).toMatchObject({ objectType: 'trial', objectId: ids.trial });
  });
});
