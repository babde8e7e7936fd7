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
