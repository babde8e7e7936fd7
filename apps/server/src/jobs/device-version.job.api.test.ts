import type { DeviceVersion, NotificationList } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import { createWorkspace, json, signedIn, type Person } from '../../test/fixtures/workspace.fixtures';
import { createVersion } from '../../test/fixtures/device-version.fixtures';
import { stlCorpus } from '../../test/fixtures/stl.fixtures';

// Restart safety of the device-version job, step by step: the server works no jobs itself, so the test runs the
// job's work directly and "crashes" it at chosen points (an abort between files, a second delivery after the
// end). A crashed run leaves judged files judged; the next run finishes the rest; a run after the end changes
// nothing and notifies nobody again. (The runner's hand-back of a killed worker's job is job-crash.api.test.ts.)

let server: TestServer;
let admin: Person;
let deviceId = '';

beforeAll(async () => {
  server = await startTestServer({ JOBS_IN_PROCESS: 'false' });
  admin = await signedIn(server);
  deviceId = (await createWorkspace(admin)).deviceId;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const corpus = stlCorpus();

async function version(id: string): Promise<DeviceVersion> {
  return json<DeviceVersion>(await admin.browser.get(`/api/devices/${deviceId}/device-versions/${id}`));
}

async function notificationsAbout(id: string): Promise<number> {
  const list = await json<NotificationList>(await admin.browser.get('/api/notifications?limit=100'));
  return list.items.filter((n) => n.link?.includes(id)).length;
}

describe('device-version job: crash and redo', () => {
  it('resumes after a crash between files, and a late second delivery changes nothing', async () => {
    const created = await createVersion(admin.browser, deviceId, [
      ['first.stl', corpus.binary],
      ['second.stl', corpus.ascii],
      ['third.stl', corpus.open],
    ]);
    const service = server.context.deviceVersions;

    // First attempt: killed once the second file has started (after the first was judged).
    const crash = new AbortController();
    const messages: string[] = [];
    await expect(
      service.process(created.id, {
        signal: crash.signal,
        progress: async (_fraction, message) => {
          if (message) messages.push(message);
          if (message?.startsWith('Checking second.stl')) crash.abort(new Error('killed'));
        },
      }),
    ).rejects.toThrow();
    let state = await version(created.id);
    expect(state.status).toBe('processing');
    expect(state.files.map((f) => f.status)).toEqual(['valid', 'pending', 'pending']);
    expect(await notificationsAbout(created.id)).toBe(0);

    // Second attempt: the first file is not checked again; the rest is.
    messages.length = 0;
    const done = await service.process(created.id, {
      signal: new AbortController().signal,
      progress: async (_f, m) => void (m && messages.push(m)),
    });
    expect(done).toEqual({ outcome: 'ready' });
    expect(messages.some((m) => m.startsWith('Checking first.stl'))).toBe(false);
    expect(messages.some((m) => m.startsWith('Checking third.stl'))).toBe(true);
    state = await version(created.id);
    expect(state.status).toBe('ready');
    expect(state.files.map((f) => f.status)).toEqual(['valid', 'valid', 'valid']);
    expect(await notificationsAbout(created.id)).toBe(1);

    // A third delivery (at-least-once queue): same outcome, no second notification.
    expect(
      await service.process(created.id, { signal: new AbortController().signal, progress: async () => {} }),
    ).toEqual({
      outcome: 'ready',
    });
    expect(await notificationsAbout(created.id)).toBe(1);
  });

  it('a file whose preview was written before the crash is finished without a second preview record', async () => {
    const created = await createVersion(admin.browser, deviceId, [['only.stl', corpus.binary]]);
    const service = server.context.deviceVersions;
    const first = await service.process(created.id, { signal: new AbortController().signal, progress: async () => {} });
    expect(first.outcome).toBe('ready');
    // Back to the state of a crash right after the preview's bytes and row were written, before the file was
    // marked valid and the version ready.
    await server.context.db.executeSql(`update device_versions set status = 'processing' where id = $1`, [created.id]);
    await server.context.db.executeSql(`update device_version_files set status = 'pending' where version_id = $1`, [
      created.id,
    ]);
    const again = await service.process(created.id, { signal: new AbortController().signal, progress: async () => {} });
    expect(again.outcome).toBe('ready');
    const previews = await server.context.db.executeSql(
      `select count(*)::int as n from stored_files where purpose = 'device_version_preview' and storage_key like $1`,
      [`%/${created.id}/%`],
    );
    expect(previews.rows[0]).toEqual({ n: 1 });
    expect((await version(created.id)).files[0]!.previewUrl).not.toBeNull();
  });

  it('the last failed attempt marks the version failed with the spec message and tells the creator', async () => {
    const created = await createVersion(admin.browser, deviceId, [['x.stl', corpus.binary]]);
    await server.context.deviceVersions.failProcessing(created.id);
    const state = await version(created.id);
    expect(state.status).toBe('failed');
    expect(state.error).toBe(
      'Something went wrong. Please check whether one of the files is corrupted and try to upload it again.',
    );
    expect(await notificationsAbout(created.id)).toBe(1);
  });
});
