import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FetchedJob, JobRepository } from '../repositories/job.repository';
import type { JobDefinition, JobServices } from './job-definition';
import { JobRunner } from './job-runner';

// The runner with a database that fails: every failure must end up in the log and in the run's
// outcome, never as an unhandled rejection (which ends the whole process).

type Handler = (job: FetchedJob) => Promise<unknown>;

/** The part of JobRepository the runner calls; each step can be made to fail. */
class FakeJobRepository {
  handler: Handler | null = null;
  failMarkRunning: Error | null = null;
  failHeartbeat: Error | null = null;
  failMarkFailed: Error | null = null;
  heartbeats = 0;
  readonly completed: string[] = [];
  readonly failed: string[] = [];

  async work(_kind: string, _poll: number, handle: Handler): Promise<string> {
    this.handler = handle;
    return 'subscription';
  }
  async offWork(): Promise<void> {}
  async markRunning(): Promise<void> {
    if (this.failMarkRunning) throw this.failMarkRunning;
  }
  async heartbeat(): Promise<boolean> {
    this.heartbeats += 1;
    if (this.failHeartbeat) throw this.failHeartbeat;
    return true;
  }
  async setProgress(): Promise<void> {}
  async markCompleted(id: string): Promise<void> {
    this.completed.push(id);
  }
  async markFailed(id: string): Promise<void> {
    if (this.failMarkFailed) throw this.failMarkFailed;
    this.failed.push(id);
  }
  async findStale(): Promise<[]> {
    return [];
  }
  async releaseIfStale(): Promise<boolean> {
    return false;
  }
  async release(): Promise<void> {}
}

function waitJob(ms: number): JobDefinition<unknown> {
  return {
    kind: 'test.wait',
    retryLimit: 2,
    expireInSeconds: 60,
    parse: (data) => data,
    perform: () => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), ms)),
  };
}

const job: FetchedJob = { id: 'job-1', kind: 'test.wait', data: {}, retryCount: 0, retryLimit: 2 };

interface LogLine {
  level: number;
  msg: string;
  err?: { message: string };
}

async function startRunner(repository: FakeJobRepository, definition: JobDefinition<unknown>) {
  const lines: LogLine[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  const runner = new JobRunner(
    repository as unknown as JobRepository,
    [definition],
    {} as JobServices,
    { heartbeatMs: 5, staleAfterMs: 60_000, pollSeconds: 1, soleProcess: false },
    log,
  );
  await runner.start();
  return { runner, lines, run: (fetched: FetchedJob) => repository.handler!(fetched) };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** Lets Node report any rejection left unhandled by the code under test. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('job runner with a failing database', () => {
  it('logs a failing heartbeat and still completes the job', async () => {
    const repository = new FakeJobRepository();
    repository.failHeartbeat = new Error('connection terminated unexpectedly');
    const { runner, lines, run } = await startRunner(repository, waitJob(60));

    await run(job);
    await settle();

    expect(repository.heartbeats).toBeGreaterThan(1);
    expect(repository.completed).toEqual(['job-1']);
    const warnings = lines.filter((line) => line.msg === 'job heartbeat failed');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]!.err?.message).toBe('connection terminated unexpectedly');
    expect(unhandled).toEqual([]);
    await runner.stop(1000);
  });

  it('fails the run when marking it running fails, logs, and forgets it so stop does not wait', async () => {
    const repository = new FakeJobRepository();
    repository.failMarkRunning = new Error('database is down');
    const { runner, lines, run } = await startRunner(repository, waitJob(10));

    // The rejection reaches the queue (pg-boss), which schedules the retry.
    await expect(run(job)).rejects.toThrow('database is down');
    await settle();

    expect(lines.some((line) => line.msg === 'job failed' && line.err?.message === 'database is down')).toBe(true);
    expect(repository.heartbeats).toBe(0);
    const started = Date.now();
    await runner.stop(5_000);
    // Before the fix the run stayed in `running` forever and stop waited out the whole grace period.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(unhandled).toEqual([]);
  });

  it('keeps the job error when recording the failure fails too, and logs both', async () => {
    const repository = new FakeJobRepository();
    repository.failMarkRunning = new Error('database is down');
    repository.failMarkFailed = new Error('still down');
    const { runner, lines, run } = await startRunner(repository, waitJob(10));

    await expect(run(job)).rejects.toThrow('database is down');
    await settle();

    expect(
      lines.some((line) => line.msg === 'could not record the job failure' && line.err?.message === 'still down'),
    ).toBe(true);
    expect(unhandled).toEqual([]);
    await runner.stop(1000);
  });
});
