import { createHash } from 'node:crypto';
import type { MeasurementDefinitionList, MeasurementOrder, ResultSnapshot } from '@insilico/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents, notifications, rooms, trialPatients } from '../../db/schema';
import { canonicalJson } from '../../events/chain';
import type { TestBrowser } from '../../../test/helpers/browser';
import { eventsOf } from '../../../test/helpers/domain-events';
import { unzipFiles } from '../../../test/helpers/exported-files';
import { pdfPhrases } from '../../../../../test/helpers/pdf-text';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { userIdOf } from '../../../test/fixtures/analysis.fixtures';
import { insertSimulation } from '../../../test/factories/simulation-rows';
import { insertTrialRow } from '../../../test/factories/trial-rows';
import { json, send, type Person, type Principal } from '../../../test/fixtures/workspace.fixtures';

/**
 * Results that stay for every kind of evidence (issue 20 item 7): a measurement order when ready and after each hand
 * correction, a trial when it finishes (a simulation's and a shape model's are checked where they are built:
 * simulations.api.test.ts, ssms.api.test.ts) keep their results append-only, hashed, named by their event; the
 * snapshot reads with its object's permission and goes into the evidence ZIP. And the notifications' durable outbox
 * (item 1): an event its writer never delivered (killed after the commit) is delivered by the sweep, and delivering
 * it again changes nothing.
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let admin: Person;
let deviceId = '';
let cohortId = '';
let projectId = '';
let adminId = '';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const base = () => `/api/devices/${deviceId}`;
const snapshotPath = (id: string) => `${base()}/result-snapshots/${id}`;

/** The snapshot an event of the object names (`after.results`), as the API answers it to the admin. */
async function namedBy(objectType: string, objectId: string, action: string): Promise<ResultSnapshot[]> {
  const events = (await eventsOf(server, objectType, objectId)).filter((event) => event.action === action);
  const kept: ResultSnapshot[] = [];
  for (const event of events) {
    const results = (event.after as { results?: { snapshotId: string; sha256: string; codeVersion: string } }).results;
    expect(results, `${action} names its results`).toBeDefined();
    const response = await admin.browser.get(snapshotPath(results!.snapshotId));
    expect(response.status).toBe(200);
    const snapshot = await json<ResultSnapshot>(response);
    expect(snapshot).toMatchObject({ objectType, objectId, contentHash: results!.sha256 });
    expect(sha256(canonicalJson(snapshot.content))).toBe(snapshot.contentHash);
    expect(results!.codeVersion).toBe(server.context.config.version);
    kept.push(snapshot);
  }
  return kept;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const stop = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > stop) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  const world = await projectWorld({
    people: principalPeople,
    cohorts: { kept: { name: 'Kept five', size: 5, settleMs: 170_000 } },
    project: { team: ['admin', 'member', 'guest'], cohorts: ['kept'] },
  });
  ({ server, admin, deviceId, projectId } = world);
  browsers = browsersOf(world);
  adminId = admin.id;
  cohortId = world.cohortIds.kept;
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

describe('a measurement order', () => {
  let order: MeasurementOrder;

  it('keeps its results when ready and again after each hand correction, each named by its event', async () => {
    const list = await json<MeasurementDefinitionList>(await admin.browser.get(`${base()}/measurement-definitions`));
    const created = await json<MeasurementOrder>(
      await admin.browser.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, {
        definitionIds: list.builtInSets[0]!.definitionIds,
      }),
    );
    order = await until(
      async () => json<MeasurementOrder>(await admin.browser.get(`${base()}/measurement-orders/${created.id}`)),
      (o) => o.status !== 'in_progress',
      'the measurement order',
    );
    expect(order.status).toBe('ready');
    const [ready] = await namedBy('measurement', order.id, 'measurement.measured');
    expect(ready).toMatchObject({ projectId: null, revision: 1 });
    expect(ready!.content).toMatchObject({ kind: 'measurement-results', order: { id: order.id, cohortId } });
    expect(ready!.content.patients).toEqual(order.patients);

    // A hand correction at end-systole on a patient imaged then: a new snapshot; the first stays as it was.
    let patientId = '';
    let annulus = { position: [] as number[], normal: [] as number[] };
    for (const p of order.patients) {
      const response = await admin.browser.get(
        `${base()}/cohorts/${cohortId}/patients/${p.patientId}/meshes/end-systole/landmarks`,
      );
      if (response.status !== 200) continue;
      const { landmarks } = await json<{ landmarks: { name: string; position: number[]; normal: number[] }[] }>(
        response,
      );
      patientId = p.patientId;
      annulus = landmarks.find((l) => l.name === 'aortic_annulus')!;
      break;
    }
    expect(patientId).not.toBe('');
    const corrected = await send(
      admin.browser,
      'PUT',
      `${base()}/measurement-orders/${order.id}/patients/${patientId}/correction`,
      {
        phase: 'end-systole',
        landmarks: {
          aortic_annulus: {
            position: annulus.position.map((x, i) => x + 2 * annulus.normal[i]!),
            normal: annulus.normal,
          },
        },
        reason: 'Annular plane 2 mm too low',
      },
    );
    expect(corrected.status).toBe(200);
    const now = await json<MeasurementOrder>(corrected);
    const [correction] = await namedBy('measurement', order.id, 'measurement.corrected');
    expect(correction).toMatchObject({ revision: 2 });
    expect(correction!.contentHash).not.toBe(ready!.contentHash);
    expect(correction!.content.patients).toEqual(now.patients);
    expect((await namedBy('measurement', order.id, 'measurement.measured'))[0]).toEqual(ready);
  });

  it('reads with the measurements’ permission: members yes, guests and outsiders no', async () => {
    const [kept] = await namedBy('measurement', order.id, 'measurement.measured');
    expect((await browsers.member.get(snapshotPath(kept!.id))).status).toBe(200);
    expect((await browsers.guest.get(snapshotPath(kept!.id))).status).toBe(403);
    expect((await browsers.otherAdmin.get(snapshotPath(kept!.id))).status).toBe(404);
    expect((await browsers.anonymous.get(snapshotPath(kept!.id))).status).toBe(401);
  });
});

describe('a trial', () => {
  it('keeps its per-patient outcomes table when it finishes', async () => {
    const trialId = await insertTrialRow(server, {
      deviceId,
      projectId,
      name: 'Kept trial',
      createdBy: adminId,
      cohortId,
    });
    const orm = server.context.db.orm;
    const { rows } = await server.context.db.executeSql(
      'select patient_id, patient_index from cohort_patients where cohort_id = $1 order by position limit 1',
      [cohortId],
    );
    const patientId = rows[0]!.patient_id as string;
    const [room] = await orm
      .insert(rooms)
      .values({
        projectId,
        name: 'Kept room',
        cohortId,
        patientIndex: rows[0]!.patient_index as number,
        createdBy: adminId,
      })
      .returning({ id: rooms.id });
    const simulationId = await insertSimulation(server, {
      projectId,
      roomId: room!.id,
      name: 'Run',
      status: 'completed',
    });
    await orm.insert(trialPatients).values({ trialId, patientId, patientIndex: 0, roomId: room!.id, simulationId });
    await server.context.trials.simulationFinished(simulationId);
    const [kept] = await namedBy('trial', trialId, 'trial.finished');
    expect(kept).toMatchObject({ projectId, revision: 1 });
    expect(kept!.content).toMatchObject({
      kind: 'trial-results',
      trial: { id: trialId, name: 'Kept trial' },
      patients: [{ patientId, status: 'done', simulationId }],
    });
  });
});

describe('the evidence ZIP', () => {
  it('holds the kept results of the project’s evidence and of the measurements on its cohorts', async () => {
    const response = await admin.browser.postJson(`${base()}/design-history/exports`, { projectId, format: 'zip' });
    expect(response.status).toBe(200);
    const files = await unzipFiles(new Uint8Array(await response.arrayBuffer()));
    const kept = [...files.keys()].filter((name) => name.startsWith('results/'));
    const types = kept.map(
      (name) => (JSON.parse(new TextDecoder().decode(files.get(name))) as ResultSnapshot).objectType,
    );
    expect(types.sort()).toEqual(['measurement', 'measurement', 'trial']);
    for (const name of kept) {
      const file = JSON.parse(new TextDecoder().decode(files.get(name))) as ResultSnapshot;
      expect(sha256(canonicalJson(file.content))).toBe(file.contentHash);
    }
  });
});

describe('the design history PDF', () => {
  it('summarises each kept revision of the measurements on the project’s cohorts, with its SHA-256', async () => {
    const zip = await admin.browser.postJson(`${base()}/design-history/exports`, { projectId, format: 'zip' });
    const files = await unzipFiles(new Uint8Array(await zip.arrayBuffer()));
    const measurements = [...files.keys()]
      .filter((name) => name.startsWith('results/'))
      .map((name) => JSON.parse(new TextDecoder().decode(files.get(name))) as ResultSnapshot)
      .filter((snapshot) => snapshot.objectType === 'measurement');
    expect(measurements.map((snapshot) => snapshot.revision).sort()).toEqual([1, 2]);
    const response = await admin.browser.postJson(`${base()}/design-history/exports`, { projectId, format: 'pdf' });
    expect(response.status).toBe(200);
    const text = pdfPhrases(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain('Measurement results kept');
    for (const snapshot of measurements) {
      expect(text).toContain(`order ${snapshot.objectId}, revision ${snapshot.revision}`);
      expect(text).toContain(`SHA-256 ${snapshot.contentHash}`);
    }
  });
});

describe('the notifications’ outbox', () => {
  it('delivers an event its writer left undelivered, once, even when it is delivered twice', async () => {
    const orm = server.context.db.orm;
    const memberId = await userIdOf(browsers.member);
    // As a process killed right after its commit leaves it: the event and its outbox row, never delivered.
    const [written] = await orm
      .insert(domainEvents)
      .values({
        actorId: adminId,
        action: 'project.member_added',
        objectType: 'project',
        objectId: projectId,
        deviceId,
        projectId,
        after: { memberId, name: 'Kept results' },
      })
      .returning({ id: domainEvents.id });
    const id = written!.id;
    const posted = async () =>
      (
        await orm
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, memberId), eq(notifications.dedupeKey, `event:${id}`)))
      ).length;
    const outbox = async () =>
      (await server.context.db.executeSql('select event_id::int as event_id from event_outbox')).rows;
    expect(await outbox()).toEqual([{ event_id: id }]);
    // Younger than the sweep's wait: the writer's to deliver; then left long enough, the sweep takes it.
    expect(await server.context.eventRelay.sweep()).toBe(0);
    await server.context.db.executeSql(`update event_outbox set enqueued_at = now() - interval '1 minute'`);
    expect(await server.context.eventRelay.sweep()).toBe(1);
    expect(await posted()).toBe(1);
    expect(await outbox()).toEqual([]);
    // Killed after the delivery, before the row went: delivered again, still one notification.
    await server.context.db.executeSql(
      `insert into event_outbox (event_id, enqueued_at) values ($1, now() - interval '1 minute')`,
      [id],
    );
    expect(await server.context.eventRelay.sweep()).toBe(1);
    expect(await posted()).toBe(1);
  });

  it('is emptied by the writer itself after an ordinary change', async () => {
    expect((await server.context.db.executeSql('select count(*)::int as n from event_outbox')).rows).toEqual([
      { n: 0 },
    ]);
  });
});
