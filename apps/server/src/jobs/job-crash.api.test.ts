import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { newAccount, signUp, TestBrowser } from '../../test/helpers/browser';
import { freePort, startTestServer, type TestServer } from '../../test/helpers/test-server';

// A worker killed with SIGKILL in the middle of a job: the job must run again and finish, and its
// effect (the notification) must happen exactly once.

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
    const ok = await fetch(`${origin}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server at ${origin} did not come up within ${ms / 1000} s`);
}

interface JobBody {
  id: string;
  status: string;
  progress: number;
  attempts: number;
}

async function waitForJob(
  browser: TestBrowser,
  id: string,
  done: (job: JobBody) => boolean,
  ms: number,
): Promise<JobBody> {
  const deadline = Date.now() + ms;
  let job: JobBody | null = null;
  while (Date.now() < deadline) {
    const response = await browser.get(`/api/jobs/${id}`).catch(() => null);
    if (response?.ok) {
      job = (await response.json()) as JobBody;
      if (done(job)) return job;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`job ${id} did not reach the expected state within ${ms / 1000} s; last seen ${JSON.stringify(job)}`);
}

async function selfCheckNotifications(browser: TestBrowser): Promise<number> {
  const list = (await (await browser.get('/api/notifications?limit=100')).json()) as { items: { kind: string }[] };
  return list.items.filter((n) => n.kind === 'job.self-check').length;
}

afterEach(async () => {
  for (const child of children.splice(0)) await killHard(child);
});

// Each database leg runs its own variant (no skipped test in either run).
if (!process.env.TEST_DATABASE_URL)
  describe('embedded database: the server process is killed mid-job', () => {
    it('runs the job again after restart and notifies once', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'insilico-crash-'));
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const env = { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, DATABASE_URL: '' };
      try {
        const first = startProcess('src/main.ts', env);
        await waitForHealth(origin);
        const browser = new TestBrowser(origin);
        await signUp(browser, newAccount(), '/');
        const job = (await (await browser.postJson('/api/jobs/self-check', { seconds: 6 })).json()) as JobBody;
        await waitForJob(browser, job.id, (j) => j.status === 'running' && j.progress >= 0.15, 30_000);
        await killHard(first);

        startProcess('src/main.ts', env);
        await waitForHealth(origin);
        const finished = await waitForJob(browser, job.id, (j) => j.status === 'completed', 60_000);
        expect(finished.attempts).toBe(2);
        expect(await selfCheckNotifications(browser)).toBe(1);
      } finally {
        for (const child of children.splice(0)) await killHard(child);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 180_000);
  });
else
  describe('PostgreSQL: a standalone worker is killed mid-job', () => {
    let server: TestServer | null = null;
    afterEach(async () => {
      await server?.stop();
      server = null;
    });

    it('is picked up by another worker and completes once', async () => {
      server = await startTestServer({ JOBS_IN_PROCESS: 'false' });
      const workerEnv = { DATABASE_URL: server.databaseUrl!, DATA_DIR: server.dataDir };
      const browser = new TestBrowser(server.origin);
      await signUp(browser, newAccount(), '/');
      const first = startProcess('src/jobs/worker.ts', workerEnv);
      const job = (await (await browser.postJson('/api/jobs/self-check', { seconds: 6 })).json()) as JobBody;
      await waitForJob(browser, job.id, (j) => j.status === 'running' && j.progress >= 0.15, 60_000);
      await killHard(first);

      startProcess('src/jobs/worker.ts', workerEnv);
      const finished = await waitForJob(browser, job.id, (j) => j.status === 'completed', 60_000);
      expect(finished.attempts).toBe(2);
      expect(await selfCheckNotifications(browser)).toBe(1);
    }, 180_000);
  });
