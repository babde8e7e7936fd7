import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/helpers/test-server';
import { openDatabase, type Database } from '../db/client';
import type { JobDescriptor } from '../jobs/job-descriptor';
import { JobRepository } from './job.repository';
import { UnitOfWork } from './unit-of-work';

const testJob: JobDescriptor<{ note: string }> = {
  kind: 'test.unit-of-work',
  retryLimit: 0,
  expireInSeconds: 60,
  parse: (data) => data as { note: string },
};

// Runs on whichever engine the run uses (embedded, or PostgreSQL with TEST_DATABASE_URL).
describe('UnitOfWork: a job enqueued in a transaction', () => {
  let db: Database;
  let jobs: JobRepository;
  let unitOfWork: UnitOfWork;

  beforeAll(async () => {
    db = await openDatabase((await freshDatabase()).target);
    jobs = new JobRepository(db, { background: false });
    await jobs.start(() => undefined);
    unitOfWork = new UnitOfWork(db.orm, { repository: jobs, queues: [testJob.kind] });
  });
  afterAll(async () => {
    await jobs.stop();
    await db.close();
  });

  async function queued(id: string): Promise<{ runs: number; queued: number }> {
    const runs = await db.executeSql('select count(*)::int as n from job_runs where id = $1', [id]);
    const queuedJobs = await db.executeSql('select count(*)::int as n from pgboss.job where id = $1', [id]);
    return { runs: Number(runs.rows[0]!.n), queued: Number(queuedJobs.rows[0]!.n) };
  }

  it('is queued, with its run row, when the transaction commits', async () => {
    const run = await unitOfWork.run((tx) => tx.jobs.enqueue(testJob, { note: 'kept' }, null));
    expect(await queued(run.id)).toEqual({ runs: 1, queued: 1 });
    const stored = await db.executeSql('select data from pgboss.job where id = $1', [run.id]);
    expect(stored.rows[0]!.data).toEqual({ note: 'kept' });
  });

  it('is not queued, and has no run row, when the transaction rolls back', async () => {
    let enqueuedId = '';
    const failure = new Error('the rows that needed the job were refused');
    await expect(
      unitOfWork.run(async (tx) => {
        enqueuedId = (await tx.jobs.enqueue(testJob, { note: 'dropped' }, null)).id;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(enqueuedId).not.toBe('');
    expect(await queued(enqueuedId)).toEqual({ runs: 0, queued: 0 });
  });

  it('refuses a kind it was not given (its queue might not exist)', async () => {
    const other = { ...testJob, kind: `test.other-${randomUUID().slice(0, 8)}` };
    await expect(unitOfWork.run((tx) => tx.jobs.enqueue(other, { note: 'x' }, null))).rejects.toThrow(
      /not among the unit of work's queues/,
    );
  });

  it("wakes this process's idle worker after the commit, long before its next poll", async () => {
    const taken: string[] = [];
    // A 60 s poll: the worker looks once at start, then only when woken (a poll would come far after the deadline).
    const worker = await jobs.work(testJob.kind, 60, async (job) => void taken.push(job.id));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // past the worker's first look
      const run = await unitOfWork.run((tx) => tx.jobs.enqueue(testJob, { note: 'woken' }, null));
      const deadline = Date.now() + 20_000;
      while (!taken.includes(run.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(taken).toContain(run.id);
    } finally {
      await jobs.offWork(worker);
    }
  });

  it('has the worker take jobs queued together back to back, not one per poll', async () => {
    const taken: string[] = [];
    // One wake for the commit: the worker takes the first job, and without looking again at once after it the other
    // two would wait for its next poll, 60 s away (a trial queues one job per patient like this).
    const worker = await jobs.work(testJob.kind, 60, async (job) => void taken.push(job.id));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // past the worker's first look
      const runs = await unitOfWork.run(async (tx) => [
        await tx.jobs.enqueue(testJob, { note: 'first' }, null),
        await tx.jobs.enqueue(testJob, { note: 'second' }, null),
        await tx.jobs.enqueue(testJob, { note: 'third' }, null),
      ]);
      const ids = runs.map((run) => run.id);
      const deadline = Date.now() + 20_000;
      while (!ids.every((id) => taken.includes(id)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(taken).toEqual(expect.arrayContaining(ids));
    } finally {
      await jobs.offWork(worker);
    }
  });
});
