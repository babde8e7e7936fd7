import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeviceVersion, NotificationList } from '@insilico/contracts';
import { loftIndices, loftRingVertex, loftVertexCount, writeBinaryStl } from '@insilico/mesh';
import { afterEach, describe, expect, it } from 'vitest';
import { newAccount, signUp, TestBrowser } from '../../test/helpers/browser';
import { freePort, startTestServer, type TestServer } from '../../test/helpers/test-server';
import { workspaceBody } from '../routes/devices/workspace.fixtures';
import { uploadFile } from '../routes/uploads/upload.fixtures';

// The process working a device version's job is killed with SIGKILL between two files: after the restart the
// job runs again, skips the file judged before the kill, finishes, and the creator is notified once.

const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const fastJobs = {
  JOB_HEARTBEAT_SECONDS: '1',
  JOB_STALE_AFTER_SECONDS: '3',
  JOB_POLL_SECONDS: '0.5',
  LOG_LEVEL: 'warn',
};
const children: ChildProcess[] = [];

function startProcess(entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: serverDir,
    env: { ...process.env, ...fastJobs, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', () => undefined);
  children.push(child);
  return child;
}

async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function waitForHealth(origin: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (
      await fetch(`${origin}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server at ${origin} did not come up within ${ms / 1000} s`);
}

/** A closed bumpy sphere of 2·rings·1000 triangles: big enough that one file takes a moment to check. */
function sphereStl(rings: number): Uint8Array {
  const options = { ringCount: rings, ringSize: 1000 };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  positions.set([0, 0, -20], 0);
  for (let r = 0; r < rings; r++) {
    const theta = (Math.PI * (r + 1)) / (rings + 1);
    for (let i = 0; i < options.ringSize; i++) {
      const phi = (2 * Math.PI * i) / options.ringSize;
      const rho = 20 * (1 + 0.05 * Math.sin(5 * theta) * Math.cos(7 * phi));
      const v = loftRingVertex(options, r, i) * 3;
      positions.set(
        [rho * Math.sin(theta) * Math.cos(phi), rho * Math.sin(theta) * Math.sin(phi), -rho * Math.cos(theta)],
        v,
      );
    }
  }
  positions.set([0, 0, 20], positions.length - 3);
  return writeBinaryStl({ positions, indices: loftIndices(options) });
}

async function versionOf(browser: TestBrowser, deviceId: string, id: string): Promise<DeviceVersion | null> {
  const response = await browser.get(`/api/devices/${deviceId}/device-versions/${id}`).catch(() => null);
  return response?.ok ? ((await response.json()) as DeviceVersion) : null;
}

async function waitForVersion(
  browser: TestBrowser,
  deviceId: string,
  id: string,
  done: (version: DeviceVersion) => boolean,
  ms: number,
): Promise<DeviceVersion> {
  const deadline = Date.now() + ms;
  let last: DeviceVersion | null = null;
  while (Date.now() < deadline) {
    last = (await versionOf(browser, deviceId, id)) ?? last;
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `version ${id} did not reach the expected state; last seen ${JSON.stringify(last?.files.map((f) => f.status))}`,
  );
}

/** Uploads three large files and creates the version; answers its id once the first file is judged. */
async function createAndReachSecondFile(browser: TestBrowser, deviceId: string): Promise<string> {
  const stl = sphereStl(200); // 400,000 triangles, 20 MB
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
    ['valid', 400_000],
    ['valid', 400_000],
    ['valid', 400_000],
  ]);
  const list = (await (await browser.get('/api/notifications?limit=100')).json()) as NotificationList;
  expect(list.items.filter((n) => n.link?.includes(id))).toHaveLength(1);
}

afterEach(async () => {
  for (const child of children.splice(0)) await killHard(child);
});

// Each database leg runs its own variant (no skipped test in either run).
if (!process.env.TEST_DATABASE_URL)
  describe('embedded database: the server process is killed while a version is processed', () => {
    it('processes the rest after the restart and notifies once', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'insilico-version-crash-'));
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const env = { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, DATABASE_URL: '' };
      try {
        const first = startProcess('src/main.ts', env);
        await waitForHealth(origin);
        const browser = new TestBrowser(origin);
        await signUp(browser, newAccount(), '/');
        const device = (await (await browser.postJson('/api/devices', workspaceBody())).json()) as {
          device: { deviceId: string };
        };
        const deviceId = device.device.deviceId;
        const id = await createAndReachSecondFile(browser, deviceId);
        await killHard(first);

        startProcess('src/main.ts', env);
        await waitForHealth(origin);
        await expectFinishedOnce(browser, deviceId, id);
      } finally {
        for (const child of children.splice(0)) await killHard(child);
        rmSync(dataDir, { recursive: true, force: true });
      }
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
      const first = startProcess('src/jobs/worker.ts', workerEnv);
      const id = await createAndReachSecondFile(browser, deviceId);
      await killHard(first);

      startProcess('src/jobs/worker.ts', workerEnv);
      await expectFinishedOnce(browser, deviceId, id);
    }, 300_000);
  });
