import { randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Database, Orm } from '../db/client';
import { jobRuns } from '../db/schema';

/**
 * pg-boss's `db` adapter on a drizzle connection or transaction: its `$n` placeholders become drizzle
 * parameters, so its SQL runs on that connection whichever engine is underneath.
 */
function sqlExecutorOn(orm: Orm): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values = []) {
      const parts = text.split(/\$(\d+)/);
      const chunks = parts.map((part, index) =>
        index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`,
      );
      // Both drivers answer { rows } (PGlite and node-postgres); the union of their drizzle types does not say so.
      const result: unknown = await orm.execute(sql.join(chunks));
      return { rows: (result as { rows: unknown[] }).rows };
    },
  };
}

export type JobRunRow = typeof jobRuns.$inferSelect;

export interface EnqueueOptions {
  userId: string | null;
  retryLimit: number;
  /** Backstop for pg-boss; live workers are judged by heartbeat, not by this. */
  expireInSeconds: number;
}

export interface FetchedJob {
  id: string;
  kind: string;
  data: unknown;
  /** 0 on the first attempt. */
  retryCount: number;
  retryLimit: number;
}

/**
 * The durable queue (pg-boss on the app's own database) and the `job_runs` rows that people
 * and the API read. Only this class knows pg-boss.
 */
export class JobRepository {
  private readonly boss: PgBoss;
  private readonly queues = new Set<string>();
  /** This process's workers per kind, woken when this process queues a job of that kind (`wake`). */
  private readonly workers = new Map<string, Set<string>>();

  /** `background: false` only installs or upgrades the queue's schema (no maintenance, no schedules). */
  constructor(
    private readonly db: Database,
    options: { background: boolean } = { background: true },
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => db.executeSql(text, values) },
      schema: 'pgboss',
      supervise: options.background,
      schedule: options.background,
      // Our sweeper and heartbeats judge liveness; pg-boss's own maintenance archives and expires.
      maintenanceIntervalSeconds: 30,
      monitorStateIntervalSeconds: 60,
    });
  }

  /** Installs or upgrades pg-boss's schema and starts its maintenance. */
  async start(onError: (error: Error) => void): Promise<void> {
    this.boss.on('error', onError);
    await this.boss.start();
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, close: false, wait: true });
  }

  async ensureQueue(kind: string): Promise<void> {
    if (this.queues.has(kind)) return;
    await this.boss.createQueue(kind);
    this.queues.add(kind);
  }

  /** Records the run and queues it under the same id, in one transaction (a worker never sees a job without its row). */
  async enqueue(kind: string, data: object, options: EnqueueOptions): Promise<JobRunRow> {
    await this.ensureQueue(kind);
    const row = await this.db.orm.transaction((tx) => this.enqueueOn(tx, kind, data, options));
    this.wake(kind);
    return row;
  }

  /**
   * Tells this process's idle workers of `kind` to look for jobs now instead of at their next poll: called after the
   * commit that queued one (before it, a worker would find nothing). Workers in other processes find it by polling.
   */
  wake(kind: string): void {
    for (const id of this.workers.get(kind) ?? []) this.boss.notifyWorker(id);
  }

  /**
   * `enqueue` on a caller's transaction (UnitOfWork): the row and pg-boss's job commit or roll back with the
   * caller's own rows. The queue must exist already (`ensureQueue` before the transaction).
   */
  async enqueueOn(tx: Orm, kind: string, data: object, options: EnqueueOptions): Promise<JobRunRow> {
    if (!this.queues.has(kind)) throw new Error(`Queue ${kind} must be created before a transaction enqueues into it.`);
    const id = randomUUID();
    const rows = await tx.insert(jobRuns).values({ id, kind, data, userId: options.userId }).returning();
    await this.boss.send(kind, data, {
      id,
      retryLimit: options.retryLimit,
      expireInSeconds: options.expireInSeconds,
      db: sqlExecutorOn(tx),
    } as PgBoss.SendOptions);
    return rows[0]!;
  }

  /**
   * Runs `kind` on a cron schedule. pg-boss sends scheduled jobs straight to its queue, so they
   * get no `job_runs` row until a worker picks them up (the runner creates it then).
   */
  async schedule(kind: string, cron: string): Promise<void> {
    await this.ensureQueue(kind);
    await this.boss.schedule(kind, cron, {}, { retryLimit: 1 });
  }

  async unschedule(kind: string): Promise<void> {
    await this.boss.unschedule(kind);
  }

  /**
   * Asks for one run of `kind` soon: calls within the same `seconds` slot from any process make
   * one job (a later slot when this one is taken), for jobs that sweep whatever is due.
   */
  async nudge(kind: string, seconds: number, retryLimit: number): Promise<void> {
    await this.ensureQueue(kind);
    await this.boss.sendDebounced(kind, {}, { retryLimit }, seconds, kind);
    this.wake(kind);
  }

  /** Starts taking jobs of one kind, one at a time; answers a handle for `offWork`. */
  async work(
    kind: string,
    pollingIntervalSeconds: number,
    handle: (job: FetchedJob) => Promise<unknown>,
  ): Promise<string> {
    await this.ensureQueue(kind);
    const id: string = await this.boss.work(
      kind,
      { batchSize: 1, pollingIntervalSeconds, includeMetadata: true },
      async (jobs) => {
        try {
          for (const job of jobs) {
            await handle({
              id: job.id,
              kind: job.name,
              data: job.data,
              retryCount: job.retryCount,
              retryLimit: job.retryLimit,
            });
          }
        } finally {
          // Having taken a job, the worker looks for the next one at once: pg-boss would otherwise wait out the rest
          // of its polling interval after a short job, so queued jobs of one kind (a trial's patients) ran one per
          // interval instead of back to back. An empty look then waits the interval as usual.
          this.boss.notifyWorker(id);
        }
      },
    );
    const ofKind = this.workers.get(kind) ?? new Set<string>();
    this.workers.set(kind, ofKind.add(id));
    return id;
  }

  async offWork(workerId: string): Promise<void> {
    for (const ofKind of this.workers.values()) ofKind.delete(workerId);
    await this.boss.offWork({ id: workerId });
  }

  async findById(id: string): Promise<JobRunRow | null> {
    const rows = await this.db.orm.select().from(jobRuns).where(eq(jobRuns.id, id));
    return rows[0] ?? null;
  }

  /** Marks the run as this worker's; creates the row for jobs that came from a schedule. */
  async markRunning(job: FetchedJob, workerId: string, attempt: number): Promise<void> {
    const running = {
      status: 'running' as const,
      workerId,
      attempts: attempt,
      startedAt: sql`now()`,
      heartbeatAt: sql`now()`,
      error: null,
    };
    await this.db.orm
      .insert(jobRuns)
      .values({ id: job.id, kind: job.kind, data: job.data ?? null, ...running })
      .onConflictDoUpdate({ target: jobRuns.id, set: running });
  }

  /** Answers false when the run is no longer this worker's (swept as stale, or cancelled). */
  async heartbeat(id: string, workerId: string): Promise<boolean> {
    const rows = await this.db.orm
      .update(jobRuns)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(jobRuns.id, id), eq(jobRuns.workerId, workerId), eq(jobRuns.status, 'running')))
      .returning({ id: jobRuns.id });
    return rows.length > 0;
  }

  async setProgress(id: string, progress: number, message: string | null): Promise<void> {
    await this.db.orm
      .update(jobRuns)
      .set({ progress, progressMessage: message, heartbeatAt: sql`now()` })
      .where(eq(jobRuns.id, id));
  }

  async markCompleted(id: string, result: unknown): Promise<void> {
    await this.db.orm
      .update(jobRuns)
      .set({ status: 'completed', progress: 1, result: result ?? null, finishedAt: sql`now()` })
      .where(eq(jobRuns.id, id));
  }

  async markFailed(id: string, error: string, willRetry: boolean): Promise<void> {
    await this.db.orm
      .update(jobRuns)
      .set(willRetry ? { status: 'queued', error } : { status: 'failed', error, finishedAt: sql`now()` })
      .where(eq(jobRuns.id, id));
  }

  /** Running jobs whose last heartbeat is older than `before`. */
  async findStale(before: Date): Promise<JobRunRow[]> {
    return this.db.orm
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.status, 'running'), lt(jobRuns.heartbeatAt, before)));
  }

  /**
   * Hands a stale run back to the queue. The conditional update makes it happen once even when
   * several processes sweep at the same moment; pg-boss then retries the job.
   */
  async releaseIfStale(run: JobRunRow, before: Date, reason: string): Promise<boolean> {
    const rows = await this.db.orm
      .update(jobRuns)
      .set({ status: 'queued', workerId: null, error: reason })
      .where(and(eq(jobRuns.id, run.id), eq(jobRuns.status, 'running'), lt(jobRuns.heartbeatAt, before)))
      .returning({ id: jobRuns.id });
    if (rows.length === 0) return false;
    await this.boss.fail(run.kind, run.id, { message: reason });
    this.wake(run.kind);
    return true;
  }

  /** Releases a run this worker is giving up (graceful shutdown) so another worker retries it. */
  async release(run: { id: string; kind: string }, workerId: string, reason: string): Promise<void> {
    const rows = await this.db.orm
      .update(jobRuns)
      .set({ status: 'queued', workerId: null, error: reason })
      .where(and(eq(jobRuns.id, run.id), eq(jobRuns.workerId, workerId), eq(jobRuns.status, 'running')))
      .returning({ id: jobRuns.id });
    if (rows.length > 0) await this.boss.fail(run.kind, run.id, { message: reason });
  }
}
