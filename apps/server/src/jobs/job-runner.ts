import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { withRequestContext } from '../events/request-context';
import type { FetchedJob, JobRepository } from '../repositories/job.repository';
import type { JobDefinition, JobServices } from './job-definition';

export interface JobRunnerOptions {
  heartbeatMs: number;
  /** A running job whose heartbeat is older than this is taken to have lost its worker. */
  staleAfterMs: number;
  pollSeconds: number;
  /**
   * True for the embedded database: only one process can open it, so at start every job still
   * marked running belonged to a process that is gone, whatever its heartbeat says.
   */
  soleProcess: boolean;
}

const progressWriteEveryMs = 500;

interface RunningJob {
  id: string;
  kind: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Works durable jobs: takes them from the queue, keeps a heartbeat while they run, stores
 * progress and outcome, and hands back jobs whose worker died (no heartbeat) so they run again.
 */
export class JobRunner {
  readonly workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private readonly subscriptions: string[] = [];
  private readonly running = new Map<string, RunningJob>();
  private sweeper: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly repository: JobRepository,
    private readonly definitions: readonly JobDefinition<unknown>[],
    private readonly services: JobServices,
    private readonly options: JobRunnerOptions,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    if (this.options.soleProcess) await this.sweep(new Date(Date.now() + 1000));
    for (const definition of this.definitions) {
      const id = await this.repository.work(definition.kind, this.options.pollSeconds, (job) =>
        this.run(definition, job),
      );
      this.subscriptions.push(id);
    }
    this.sweeper = setInterval(
      () => {
        void this.sweep(new Date(Date.now() - this.options.staleAfterMs)).catch((error: unknown) =>
          this.log.error({ err: error }, 'job sweep failed'),
        );
      },
      Math.max(1000, Math.floor(this.options.staleAfterMs / 3)),
    );
    this.sweeper.unref();
    this.log.info({ workerId: this.workerId, kinds: this.definitions.map((d) => d.kind) }, 'job runner started');
  }

  /**
   * Stops taking jobs, gives running ones `graceMs` to finish, then aborts and releases the rest
   * so another worker retries them at once instead of waiting for the heartbeat to go stale.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const id of this.subscriptions.splice(0)) await this.repository.offWork(id).catch(() => undefined);
    const all = Promise.all([...this.running.values()].map((job) => job.done));
    const finished = await Promise.race([all.then(() => true), delay(graceMs).then(() => false)]);
    if (!finished) {
      for (const job of this.running.values()) {
        await this.repository.release(job, this.workerId, 'The worker shut down; the job will run again.');
        job.controller.abort(new Error('worker shutting down'));
      }
      await Promise.race([all, delay(2000)]);
    }
  }

  /** Hands back every job that has stopped sending heartbeats since `before`. */
  async sweep(before: Date): Promise<number> {
    let released = 0;
    for (const run of await this.repository.findStale(before)) {
      if (this.running.has(run.id)) continue;
      if (await this.repository.releaseIfStale(run, before, 'The worker stopped responding; the job will run again.')) {
        released += 1;
        this.log.warn(
          { jobId: run.id, kind: run.kind, lastWorker: run.workerId },
          'released a job whose worker stopped',
        );
      }
    }
    return released;
  }

  private async run(definition: JobDefinition<unknown>, job: FetchedJob): Promise<void> {
    const attempt = job.retryCount + 1;
    const controller = new AbortController();
    const log = this.log.child({ jobId: job.id, kind: job.kind, attempt });
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.running.set(job.id, { id: job.id, kind: job.kind, controller, done });
    let heartbeat: NodeJS.Timeout | undefined;
    let lastProgressWrite = 0;
    // Everything from markRunning on is inside the try: a database error at any step fails this
    // run (the queue retries it) and still clears it from `running`, instead of escaping.
    try {
      await this.repository.markRunning(job, this.workerId, attempt);
      heartbeat = setInterval(() => {
        this.repository.heartbeat(job.id, this.workerId).then(
          (mine) => {
            if (!mine) controller.abort(new Error('job was taken away from this worker'));
          },
          // A missed beat is not fatal: the next one may pass, and the sweeper judges staleness.
          (error: unknown) => log.warn({ err: error }, 'job heartbeat failed'),
        );
      }, this.options.heartbeatMs);
      log.info('job started');
      const data = definition.parse(job.data);
      // The job's domain events name it as their cause, as a request's name the request (issue 20).
      const result = await withRequestContext({ requestId: `job:${job.id}` }, () =>
        definition.perform({
          jobId: job.id,
          data,
          attempt,
          signal: controller.signal,
          services: this.services,
          log,
          progress: async (fraction, message) => {
            const now = Date.now();
            if (fraction < 1 && now - lastProgressWrite < progressWriteEveryMs) return;
            lastProgressWrite = now;
            await this.repository.setProgress(job.id, Math.min(1, Math.max(0, fraction)), message ?? null);
          },
        }),
      );
      await this.repository.markCompleted(job.id, result);
      log.info('job completed');
    } catch (error) {
      if (controller.signal.aborted) {
        // Released on shutdown or swept: the queue already holds the retry; report nothing here.
        log.warn({ reason: String(controller.signal.reason) }, 'job abandoned by this worker');
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const willRetry = job.retryCount < job.retryLimit;
      log.error({ err: error, willRetry }, 'job failed');
      // The queue's own record of the failure (the rethrow below) must not be lost to a second error.
      await this.repository
        .markFailed(job.id, message, willRetry)
        .catch((recordError: unknown) => log.error({ err: recordError }, 'could not record the job failure'));
      throw error;
    } finally {
      clearInterval(heartbeat);
      this.running.delete(job.id);
      settle();
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
