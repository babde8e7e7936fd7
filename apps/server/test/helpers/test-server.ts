import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config';
import type { DatabaseTarget, StatementObserver } from '../../src/db/client';
import { startServer, type RunningServer } from '../../src/server';
import { withDatabase } from '../global-setup';
import { registerOutbox } from './browser';
import { trackRunning } from './running-servers';

export interface TestServer extends RunningServer {
  origin: string;
  dataDir: string;
  databaseUrl: string | null;
  stop(): Promise<void>;
}

/** Whether nothing listens on this loopback port now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Ports handed out so far by this test process (each worker process starts again at its block's start). */
let portsHandedOut = 0;

/**
 * A free TCP port on loopback (the public URL must be known before the server listens). Taken below Linux's
 * ephemeral range (32768–60999): a port the kernel picked for a probe and freed again can be given to any outgoing
 * connection (a test's HTTP client, the database's) before the server listens on it — CI failed once with EADDRINUSE
 * that way. Below that range only listeners take ports, and each vitest worker (VITEST_POOL_ID) has a block of 1,000
 * of its own, so two workers never pick the same port.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const blockStart = 20_000 + (worker % 12) * 1_000;
  for (let tries = 0; tries < 1_000; tries++) {
    const port = blockStart + (portsHandedOut++ % 1_000);
    if (await canListen(port)) return port;
  }
  throw new Error(`No free loopback port in ${blockStart}–${blockStart + 999}.`);
}

/** A fresh database cloned from the run's template: PGlite in memory, or a new PostgreSQL database. */
export async function freshDatabase(): Promise<{ target: DatabaseTarget; url: string | null }> {
  const postgresTemplate = inject('postgresTemplate');
  const url = process.env.TEST_DATABASE_URL;
  if (postgresTemplate && url) {
    // Named after the run's template, so the run's teardown drops exactly its own databases.
    const name = `${postgresTemplate}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgresTemplate}`);
    await admin.end();
    const databaseUrl = withDatabase(url, name);
    return { target: { url: databaseUrl, poolSize: 5 }, url: databaseUrl };
  }
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('The test database template is missing: run the tests through vitest (global setup).');
  return { target: { pgliteDir: null, loadDataDir: new Blob([readFileSync(template)]) }, url: null };
}

/** The tests' configuration of a server on this port, data directory and database. */
function testConfig(port: number, dataDir: string, url: string | null, env: Record<string, string>) {
  return loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // The production default: this process wakes its own workers when it queues a job (JobRepository.wake), so the
    // poll only finds retries and scheduled runs; at 0.5 s it cost ≈ 12 % of a core per server (ci-time.md).
    JOB_POLL_SECONDS: '2',
    MAINTENANCE_CACHE_SECONDS: '0',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...(url ? { DATABASE_URL: url } : {}),
    ...env,
  });
}

/** A running server as the tests see it; `stop` closes it and, when `dispose`, removes its data directory. */
function asTestServer(server: RunningServer, port: number, dataDir: string, url: string | null, dispose: boolean) {
  const origin = `http://127.0.0.1:${port}`;
  const unregister = registerOutbox(origin, (to) => server.context.mail.outbox(5, to));
  const testServer: TestServer = {
    ...server,
    origin,
    dataDir,
    databaseUrl: url,
    // `close` (the running server's own) also counts as stopped, so a file that closes its server is not blamed for
    // leaving it running (shared-process.setup.ts); `stop` also removes the data directory.
    async close() {
      untrack();
      await server.close();
    },
    async stop() {
      untrack();
      await server.close();
      unregister();
      if (dispose) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const untrack = trackRunning(testServer);
  return testServer;
}

/** The real server on a real port, with its own fresh database (`onStatement` sees every statement it sends). */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { onStatement?: StatementObserver } = {},
): Promise<TestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'insilico-test-'));
  const { target, url } = await freshDatabase();
  const server = await startServer(testConfig(port, dataDir, url, env), { ...target, ...options });
  return asTestServer(server, port, dataDir, url, true);
}

/**
 * A server that can be stopped and started again on the same port, data directory and database (a restart): the
 * embedded database is kept on disk in the data directory (the run's template loaded on the first start), or the
 * same PostgreSQL database is opened again. `env` may differ between starts (JOBS_IN_PROCESS, say); `dispose`
 * removes the data directory once the last start is stopped.
 */
export async function restartableTestServer(): Promise<{
  start(env?: Record<string, string>): Promise<TestServer>;
  dispose(): void;
}> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'insilico-restart-'));
  const fresh = await freshDatabase();
  const pgliteDir = join(dataDir, 'pglite');
  let first = true;
  return {
    async start(env = {}) {
      const target: DatabaseTarget =
        'url' in fresh.target
          ? fresh.target
          : first
            ? { pgliteDir, ...(fresh.target.loadDataDir ? { loadDataDir: fresh.target.loadDataDir } : {}) }
            : { pgliteDir };
      first = false;
      const server = await startServer(testConfig(port, dataDir, fresh.url, env), target);
      return asTestServer(server, port, dataDir, fresh.url, false);
    },
    dispose() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
