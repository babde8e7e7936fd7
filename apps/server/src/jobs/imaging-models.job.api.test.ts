import { randomUUID } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import type { ImagingModelsDelivery, NotificationList } from '@insilico/contracts';
import { writeBinaryStl } from '@insilico/mesh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertModellingDataset } from '../../test/factories/imaging-rows';
import { deliveryOf, modelsPath, storedModels } from '../../test/fixtures/imaging-delivery.fixtures';
import { zipOf } from '../../test/fixtures/imaging.fixtures';
import { cube } from '../../test/fixtures/stl.fixtures';
import { putBytes } from '../../test/helpers/pictures';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import { createWorkspace, json, signedIn, type Person } from '../../test/fixtures/workspace.fixtures';
import { deliveryZipOf } from '../services/imaging-queue.service';
import type { ImagingModelsData } from './imaging-models.job';

// Restart safety of the models-delivery job, step by step (like device-version.job.api.test.ts): the server works
// no jobs itself, so the request only stores the zip and queues the job (202, pending), and the test runs the job's
// work directly, "crashing" it mid-check. A crashed run changes nothing and keeps the zip; the next run makes the
// dataset ready and tells the uploader; a late third run changes nothing and tells nobody again. A refused delivery
// removes its zip. (The runner's hand-back of a killed worker's job is job-crash.api.test.ts.)

let server: TestServer;
let uploader: Person;
let staff: Person;
let deviceId = '';

beforeAll(async () => {
  server = await startTestServer({ JOBS_IN_PROCESS: 'false' });
  uploader = await signedIn(server);
  staff = await signedIn(server);
  deviceId = (await createWorkspace(uploader)).deviceId;
  await server.context.supportStaff.set(staff.account.email, true);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const goodModels = () =>
  zipOf([
    ['P1/aorta_systole.stl', writeBinaryStl(cube())],
    ['P1/landmarks.json', text({ landmarks: [{ name: 'annulus', position: [1, 2, 3] }] })],
  ]);

/** Submits models (202, pending) and answers the queued job's data. */
async function submit(datasetId: string, zip: Uint8Array): Promise<ImagingModelsData> {
  const response = await putBytes(staff.browser, modelsPath(datasetId), zip, { contentType: 'application/zip' });
  expect(response.status, await response.clone().text()).toBe(202);
  const answer = await json<ImagingModelsDelivery>(response);
  expect(answer).toMatchObject({ pending: true, accepted: false, findings: [] });
  expect(answer.dataset.delivery).toMatchObject({ status: 'pending', progress: 0, findings: [] });
  const { rows } = await server.context.db.executeSql(
    "select data from job_runs where kind = 'imaging.models' and data->>'datasetId' = $1 and status = 'queued'",
    [datasetId],
  );
  expect(rows).toHaveLength(1);
  return (rows[0] as { data: ImagingModelsData }).data;
}

async function readyNotifications(datasetId: string, person: Person): Promise<number> {
  const list = await json<NotificationList>(await person.browser.get('/api/notifications?limit=100'));
  return list.items.filter((n) => n.kind === 'imaging.ready' && n.link?.includes(datasetId)).length;
}

async function deliveredEvents(datasetId: string): Promise<number> {
  const { rows } = await server.context.db.executeSql(
    "select id from domain_events where action = 'imaging.models_delivered' and object_id = $1",
    [datasetId],
  );
  return rows.length;
}

const service = () => server.context.imagingQueue;
const idle = { progress: async () => undefined, signal: new AbortController().signal };

describe('imaging models delivery job: crash and redo', () => {
  it('keeps the zip through a crash mid-check, makes the dataset ready once, and tells the uploader once', async () => {
    const datasetId = await insertModellingDataset(server, { deviceId, projectId: null, uploadedBy: uploader.id });
    const data = await submit(datasetId, await goodModels());
    // A second delivery while one is pending is refused (409), and stores nothing.
    const second = await putBytes(staff.browser, modelsPath(datasetId), await goodModels(), {
      contentType: 'application/zip',
    });
    expect(second.status).toBe(409);
    expect(await storedModels(server, datasetId)).toEqual([data.storageKey]);

    // First attempt: killed once the check has started.
    const crash = new AbortController();
    await expect(
      service().checkDelivery(data, {
        signal: crash.signal,
        progress: async (_fraction, message) => {
          if (message === 'Checking the models') crash.abort(new Error('killed'));
        },
      }),
    ).rejects.toThrow();
    const [row] = (
      await server.context.db.executeSql('select status, models_storage_key from imaging_datasets where id = $1', [
        datasetId,
      ])
    ).rows as { status: string; models_storage_key: string | null }[];
    expect(row).toEqual({ status: 'modelling', models_storage_key: null });
    expect(await storedModels(server, datasetId)).toEqual([data.storageKey]);
    expect(await deliveredEvents(datasetId)).toBe(0);

    // The retry: ready, with its event, and the uploader (not the staff) is told.
    expect(await service().checkDelivery(data, idle)).toEqual({ accepted: true, findings: [] });
    expect(await deliveredEvents(datasetId)).toBe(1);
    expect(await readyNotifications(datasetId, uploader)).toBe(1);
    expect(await readyNotifications(datasetId, staff)).toBe(0);
    expect(await storedModels(server, datasetId)).toEqual([data.storageKey]);

    // A late third run (at-least-once queue): same outcome, nothing recorded or told again, the zip kept.
    expect(await service().checkDelivery(data, idle)).toEqual({ accepted: true, findings: [] });
    await service().abandonDelivery(data);
    expect(await deliveredEvents(datasetId)).toBe(1);
    expect(await readyNotifications(datasetId, uploader)).toBe(1);
    expect(await storedModels(server, datasetId)).toEqual([data.storageKey]);
  }, 60_000);

  it('removes a refused zip, names the file, and leaves the dataset waiting', async () => {
    const datasetId = await insertModellingDataset(server, { deviceId, projectId: null, uploadedBy: uploader.id });
    const data = await submit(datasetId, await zipOf([['P1/aorta_systole.stl', writeBinaryStl(cube())]]));
    const outcome = await service().checkDelivery(data, idle);
    expect(outcome).toEqual({
      accepted: false,
      findings: [{ file: 'P1/landmarks.json', tag: null, problem: 'is missing' }],
    });
    expect(await storedModels(server, datasetId)).toEqual([]);
    expect(await deliveredEvents(datasetId)).toBe(0);
    // Still pending in the queue until the runner records the job's result; the dataset waits for models.
    expect((await deliveryOf(staff.browser, datasetId))?.status).toBe('pending');
  }, 60_000);
});

describe('imaging models sweep: zips no delivery wants', () => {
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

  /** Stores a file under the key as a crashed process would have left it, last changed `changed`. */
  async function leave(key: string, changed: Date): Promise<void> {
    await server.context.blobs.put('eu', key, new Uint8Array([1, 2, 3]));
    await age(key, changed);
  }
  async function age(key: string, changed: Date): Promise<void> {
    const file = await server.context.blobs.localFile('eu', key);
    await utimes(file!.path, changed, changed);
    await file!.release();
  }
  const exists = async (key: string) => (await server.context.blobs.get('eu', key)) !== null;

  it('removes old zips without a delivery and what was made from them; keeps wanted and recent ones', async () => {
    const ready = await insertModellingDataset(server, { deviceId, projectId: null, uploadedBy: uploader.id });
    const delivered = await submit(ready, await goodModels());
    expect(await service().checkDelivery(delivered, idle)).toEqual({ accepted: true, findings: [] });
    // The check job finished: from now on only the dataset holds the zip.
    await server.context.db.executeSql("update job_runs set status = 'completed' where data->>'storageKey' = $1", [
      delivered.storageKey,
    ]);
    const deliveredMesh = `${delivered.storageKey.replace(/\.zip$/, '')}/meshes/P1/systole.glb`;
    await leave(deliveredMesh, hoursAgo(3));
    await age(delivered.storageKey, hoursAgo(3));

    const waiting = await insertModellingDataset(server, { deviceId, projectId: null, uploadedBy: uploader.id });
    const queued = await submit(waiting, await goodModels());
    await age(queued.storageKey, hoursAgo(3));

    // A delivery whose last attempt failed and whose removal did not happen.
    const failing = await insertModellingDataset(server, { deviceId, projectId: null, uploadedBy: uploader.id });
    const failed = await submit(failing, await goodModels());
    await server.context.db.executeSql("update job_runs set status = 'failed' where data->>'storageKey' = $1", [
      failed.storageKey,
    ]);
    await age(failed.storageKey, hoursAgo(2));

    // Stored by a process that crashed before queueing the check: the zip, a temporary of another, a mesh.
    const crashed = `imaging-models/${waiting}/${randomUUID()}.zip`;
    const partial = `imaging-models/${waiting}/${randomUUID()}.zip.${randomUUID()}.part`;
    const crashedMesh = `${crashed.replace(/\.zip$/, '')}/meshes/P1/systole.glb`;
    for (const key of [crashed, partial, crashedMesh]) await leave(key, hoursAgo(2));
    // Within the grace period (a delivery about to be queued) or of a shape the sweep does not know: left alone.
    const recent = `imaging-models/${waiting}/${randomUUID()}.zip`;
    await leave(recent, hoursAgo(0.5));
    const stranger = `imaging-models/${waiting}/notes.txt`;
    await leave(stranger, hoursAgo(5));

    const swept = await service().sweepUnwantedModels(new Date());
    expect(swept).toEqual({ removed: 4, bytes: 9 + (await goodModels()).length });
    for (const key of [delivered.storageKey, deliveredMesh, queued.storageKey, recent, stranger])
      expect(await exists(key), key).toBe(true);
    for (const key of [failed.storageKey, crashed, partial, crashedMesh]) expect(await exists(key), key).toBe(false);
    // The delivered patients still work from their zip; the queued delivery still checks.
    expect(await service().checkDelivery(queued, idle)).toEqual({ accepted: true, findings: [] });
    // The recent one, once past the grace period, goes too; a second sweep finds nothing else.
    expect(await service().sweepUnwantedModels(new Date(Date.now() + 3600_000))).toEqual({ removed: 1, bytes: 3 });
    expect(await exists(recent)).toBe(false);
  }, 60_000);

  it('knows the files of a delivery by its zip, and nothing else', () => {
    const d = '0b6e3b9a-6c1e-4a57-9c7d-3f1f4c2b8e11';
    const u = '5d3c7e1f-2b4a-4c8d-9e6f-1a2b3c4d5e6f';
    const zip = `imaging-models/${d}/${u}.zip`;
    expect(deliveryZipOf(zip)).toBe(zip);
    expect(deliveryZipOf(`${zip}.${u}.part`)).toBe(zip);
    expect(deliveryZipOf(`imaging-models/${d}/${u}/meshes/P1/systole.glb`)).toBe(zip);
    expect(deliveryZipOf(`imaging-models/${d}/notes.txt`)).toBeNull();
    expect(deliveryZipOf(`imaging-models/${d}/${u}.zipper`)).toBeNull();
    expect(deliveryZipOf(`pictures/${d}/${u}.zip`)).toBeNull();
  });
});
