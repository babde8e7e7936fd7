import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerOutbox } from './browser';
import { freePort } from './test-server';

/**
 * Server and worker processes for the crash suites: started with tsx from apps/server, with fast job liveness
 * settings, and killed with SIGKILL (no graceful shutdown) at the moment a test chooses.
 */

const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const fastJobs = {
  JOB_HEARTBEAT_SECONDS: '1',
  JOB_STALE_AFTER_SECONDS: '3',
  JOB_POLL_SECONDS: '0.5',
  LOG_LEVEL: 'warn',
};

export class ProcessGroup {
  private readonly children: ChildProcess[] = [];

  /** `entry` relative to apps/server, e.g. `src/main.ts` or `src/jobs/worker.ts`. */
  start(entry: string, env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: serverDir,
      env: { ...process.env, ...fastJobs, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', () => undefined);
    this.children.push(child);
    return child;
  }

  /** Kills every process still running (afterEach). */
  async killAll(): Promise<void> {
    for (const child of this.children.splice(0)) await killHard(child);
  }
}

/** SIGKILL, then wait until the process is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export async function waitForHealth(origin: string, ms = 90_000): Promise<void> {
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

/**
 * A server process on the embedded database in a fresh data folder and port: `run` starts it (again, after a kill)
 * with `start`, which answers once the server is healthy. Every process is killed and the folder removed after.
 */
export async function withEmbeddedServer(
  processes: ProcessGroup,
  run: (server: { origin: string; start(): Promise<ChildProcess> }) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'insilico-crash-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, DATABASE_URL: '' };
  // The outbox through the operator route, with the token the running server wrote into DATA_DIR.
  const unregister = registerOutbox(origin, async (to) => {
    const { operatorToken } = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as {
      operatorToken: string;
    };
    const response = await fetch(`${origin}/api/operator/outbox?to=${encodeURIComponent(to)}&limit=5`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    return ((await response.json()) as { items: { subject: string; text: string }[] }).items;
  });
  try {
    await run({
      origin,
      start: async () => {
        const child = processes.start('src/main.ts', env);
        await waitForHealth(origin);
        return child;
      },
    });
  } finally {
    await processes.killAll();
    unregister();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Reads a state until `done` holds (an unanswered read counts as not yet); fails with the last state seen. */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T | null>,
  done: (state: T) => boolean,
  ms: number,
  describe: (state: T | null) => string = (state) => JSON.stringify(state),
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T | null = null;
  while (Date.now() < deadline) {
    last = (await read().catch(() => null)) ?? last;
    if (last !== null && done(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not reach the expected state within ${ms / 1000} s; last seen ${describe(last)}`);
}
