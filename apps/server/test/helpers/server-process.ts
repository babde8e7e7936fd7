import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
