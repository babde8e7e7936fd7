import type { DeviceVersion, NotificationList } from '@insilico/contracts';
import { writeBinaryStl } from '@insilico/mesh';
import { afterEach, describe, expect, it } from 'vitest';
import { newAccount, signUp, TestBrowser } from '../../test/helpers/browser';
import { killHard, pollUntil, ProcessGroup, withEmbeddedServer } from '../../test/helpers/server-process';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import { workspaceBody } from '../../test/fixtures/workspace.fixtures';
import { uploadFile } from '../../test/fixtures/upload.fixtures';

// The process working a device version's job is killed with SIGKILL between two files: after the restart the
// job runs again, skips the file judged before the kill, finishes, and the creator is notified once.

const processes = new ProcessGroup();

/** A wavy square plate of 2·(n−1)² triangles (an open surface): big enough that one file takes a moment. */
function plateStl(n: number): Uint8Array {
  const positions = new Float64Array(n * n * 3);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) positions.set([x * 0.1, y * 0.1, Math.sin(x / 7) * Math.cos(y / 5)], (y * n + x) * 3);
  const indices = new Uint32Array(6 * (n - 1) * (n - 1));
  let t = 0;
  for (let y = 0; y < n - 1; y++)
    for (let x = 0; x < n - 1; x++) {
      const a = y * n + x;
      indices.set([a, a + 1, a + n + 1, a, a + n + 1, a + n], t);
      t += 6;
    }
  return writeBinaryStl({ positions, indices });
}

const side = 448;
const trianglesPerFile = 2 * (side - 1) ** 2;

async function waitForVersion(
  browser: TestBrowser,
  deviceId: string,
  id: string,
  done: (version: DeviceVersion) => boolean,
  ms: number,
): Promise<DeviceVersion> {
  const read = async () => {
    const response = await browser.get(`/api/devices/${deviceId}/device-versions/${id}`);
    return response.ok ? ((await response.json()) as DeviceVersion) : null;
  };
  return pollUntil(`version ${id}`, read, done, ms, (last) => JSON.stringify(last?.files.map((f) => f.status)));
}

/** Uploads three large files and creates the version; answers its id once the first file is judged. */
async function createAndReachSecondFile(browser: TestBrowser, deviceId: string): Promise<string> {
  const stl = plateStl(side); // 399,618 triangles, 20 MB
  const uploadIds = [];
  for (const name of ['a.stl', 'b.stl', 'c.stl'])
    uploadIds.push(await uploadFile(browser, deviceId, name, stl, 4 << 20));
  const created = await browser.postJson(`/api/devices/${deviceId}/device-versions`, { name: 'Crash test', uploadIds });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const midway = await waitForVersion(browser, deviceId, id, (v) => v.files[0]?.status === 'valid', 120_000);
  expect(midway.status).toBe('processing');
  return id;
}

async function expectFinishedOnce(browser: TestBrowser, deviceId: string, id: string): Promise<void> {
  const ready = await waitForVersion(browser, deviceId, id, (v) => v.status !== 'processing', 120_000);
  expect(ready.status).toBe('ready');
  expect(ready.files.map((f) => [f.status, f.metrics?.triangleCount])).toEqual([
    ['valid', trianglesPerFile],
    ['valid', trianglesPerFile],
    ['valid', trianglesPerFile],
  ]);
  const list = (await (await browser.get('/api/notifications?limit=100')).json()) as NotificationList;
  expect(list.items.filter((n) => n.link?.includes(id))).toHaveLength(1);
}

afterEach(() => processes.killAll());

// Each database leg runs its own variant (no skipped test in either run).
if (!process.env.TEST_DATABASE_URL)
  describe('embedded database: the server process is killed while a version is processed', () => {
    it('processes the rest after the restart and notifies once', async () => {
      await withEmbeddedServer(processes, async ({ origin, start }) => {
        const first = await start();
        const browser = new TestBrowser(origin);
        await signUp(browser, newAccount(), '/');
        const device = (await (await browser.postJson('/api/devices', workspaceBody())).json()) as {
          device: { deviceId: string };
        };
        const deviceId = device.device.deviceId;
        const id = await createAndReachSecondFile(browser, deviceId);
        await killHard(first);

        await start();
        await expectFinishedOnce(browser, deviceId, id);
      });
    }, 300_000);
  });
else
  describe('PostgreSQL: a standalone worker is killed while a version is processed', () => {
    let server: TestServer | null = null;
    afterEach(async () => {
      await server?.stop();
      server = null;
    });

    it('another worker processes the rest and the creator is notified once', async () => {
      server = await startTestServer({ JOBS_IN_PROCESS: 'false' });
      const workerEnv = { DATABASE_URL: server.databaseUrl!, DATA_DIR: server.dataDir };
      const browser = new TestBrowser(server.origin);
      await signUp(browser, newAccount(), '/');
      const device = (await (await browser.postJson('/api/devices', workspaceBody())).json()) as {
        device: { deviceId: string };
      };
      const deviceId = device.device.deviceId;
      const first = processes.start('src/jobs/worker.ts', workerEnv);
      const id = await createAndReachSecondFile(browser, deviceId);
      await killHard(first);

      processes.start('src/jobs/worker.ts', workerEnv);
      await expectFinishedOnce(browser, deviceId, id);
    }, 300_000);
  });
