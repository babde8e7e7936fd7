import { afterEach, describe, expect, it } from 'vitest';
import { newAccount, signUp, TestBrowser } from '../../test/helpers/browser';
import { killHard, pollUntil, ProcessGroup, withEmbeddedServer } from '../../test/helpers/server-process';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';

// A worker killed with SIGKILL in the middle of a job: the job must run again and finish, and its
// effect (the notification) must happen exactly once.

const processes = new ProcessGroup();

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
  const read = async () => {
    const response = await browser.get(`/api/jobs/${id}`);
    return response.ok ? ((await response.json()) as JobBody) : null;
  };
  return pollUntil(`job ${id}`, read, done, ms);
}

async function selfCheckNotifications(browser: TestBrowser): Promise<number> {
  const list = (await (await browser.get('/api/notifications?limit=100')).json()) as { items: { kind: string }[] };
  return list.items.filter((n) => n.kind === 'job.self-check').length;
}

afterEach(() => processes.killAll());

// Each database leg runs its own variant (no skipped test in either run).
if (!process.env.TEST_DATABASE_URL)
  describe('embedded database: the server process is killed mid-job', () => {
    it('runs the job again after restart and notifies once', async () => {
      await withEmbeddedServer(processes, async ({ origin, start }) => {
        const first = await start();
        const browser = new TestBrowser(origin);
        await signUp(browser, newAccount(), '/');
        const job = (await (await browser.postJson('/api/jobs/self-check', { seconds: 6 })).json()) as JobBody;
        await waitForJob(browser, job.id, (j) => j.status === 'running' && j.progress >= 0.15, 30_000);
        await killHard(first);

        await start();
        const finished = await waitForJob(browser, job.id, (j) => j.status === 'completed', 60_000);
        expect(finished.attempts).toBe(2);
        expect(await selfCheckNotifications(browser)).toBe(1);
      });
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
      const first = processes.start('src/jobs/worker.ts', workerEnv);
      const job = (await (await browser.postJson('/api/jobs/self-check', { seconds: 6 })).json()) as JobBody;
      await waitForJob(browser, job.id, (j) => j.status === 'running' && j.progress >= 0.15, 60_000);
      await killHard(first);

      processes.start('src/jobs/worker.ts', workerEnv);
      const finished = await waitForJob(browser, job.id, (j) => j.status === 'completed', 60_000);
      expect(finished.attempts).toBe(2);
      expect(await selfCheckNotifications(browser)).toBe(1);
    }, 180_000);
  });
