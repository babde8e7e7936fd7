import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CpuTask, ThreadReply, ThreadRun } from './task';

export interface CpuRunOptions {
  /** Aborting ends the task: a queued one leaves the queue, a running one's thread is terminated. */
  signal?: AbortSignal;
  onProgress?(fraction: number, message?: string): void;
  /** Buffers of the input to move into the worker instead of copying them. */
  transfer?: readonly ArrayBuffer[];
}

/** What services are given: somewhere to run CPU-heavy pure work without holding the event loop. */
export interface CpuRunner {
  run<Input, Output>(task: CpuTask<Input, Output>, input: Input, options?: CpuRunOptions): Promise<Output>;
  /** How many tasks run at the same time; more are queued. */
  readonly concurrency: number;
}

/** A task that failed in its worker: the worker's message, its error's name and stack. */
export class CpuTaskError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
    readonly workerStack: string | undefined,
  ) {
    super(message);
    this.name = 'CpuTaskError';
  }
}

/** The pool was closed: queued tasks are refused, running ones stopped. */
export class CpuPoolClosedError extends Error {
  constructor() {
    super('The CPU worker pool has been closed.');
    this.name = 'CpuPoolClosedError';
  }
}

export interface CpuPoolOptions {
  /** Threads at most; default: cores − 1, at least 1 (one core stays with the event loop). */
  threads?: number;
  /** A thread idle this long ends (it costs memory); the next task starts a new one. Default 60 s. */
  idleMs?: number;
  /**
   * Nice value of the threads (Linux), 0–19: above 0 the event loop wins a core both want, so requests stay fast
   * while a job computes. Default 10.
   */
  nice?: number;
}

/** Cores − 1, at least 1. */
export function defaultCpuThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

interface Pending {
  id: number;
  task: CpuTask<unknown, unknown>;
  input: unknown;
  options: CpuRunOptions;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onAbort?: () => void;
}

interface Thread {
  worker: Worker;
  /** Resolves when the worker has loaded tsx and its entry (ready for tasks). */
  ready: Promise<void>;
  /** Whether it is ready (only a ready thread is worth keeping for another pool). */
  started: boolean;
  current: Pending | null;
  idleTimer: NodeJS.Timeout | null;
}

/** The tsx ESM API, resolved from this module when the runtime can (else from the working directory). */
function tsxApi(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return 'tsx/esm/api';
  }
}

/**
 * Node options of the threads: none, or a CPU profile per thread into CPU_POOL_PROFILE_DIR (a diagnosis of what a
 * task spends its time on, written when the thread ends; docs/decisions/ci-time.md).
 */
function threadExecArgv(): string[] {
  const dir = process.env.CPU_POOL_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/**
 * Worker bootstrap (as packages/sph/src/pool.ts does, docs/decisions/sph-threads.md): registers tsx in the thread,
 * then imports the TypeScript entry. Node 20 does not apply `execArgv: ['--import', 'tsx']` to a `.ts` entry.
 */
const BOOTSTRAP = `import(${JSON.stringify(tsxApi())}).then(({ register }) => { register(); return import(${JSON.stringify(
  new URL('./thread.ts', import.meta.url).href,
)}); });`;

/** Idle threads left by closed pools, waiting for the next pool of this process (`shareThreadsBetweenPools`). */
interface SpareThread {
  worker: Worker;
  nice: number;
  timer: NodeJS.Timeout;
}

let spareIdleMs = 0;
const spareThreads = new Set<SpareThread>();

/**
 * From now on, a closing pool hands its idle threads, with the modules they have imported, to the next pool of this
 * process with the same nice value; unclaimed, each ends after `idleMs`. For processes that start pool after pool —
 * the test servers of the test files that share a vitest worker (docs/decisions/ci-time.md): each would otherwise
 * start its thread and import the task modules again (seconds of CPU each). Off by default: a server or worker
 * process has one pool for its life. 0 turns it off and ends the spare threads. Answers the setting before.
 */
export function shareThreadsBetweenPools(idleMs: number): number {
  const before = spareIdleMs;
  spareIdleMs = Math.max(0, idleMs);
  if (spareIdleMs === 0) for (const spare of spareThreads) endSpare(spare);
  return before;
}

function endSpare(spare: SpareThread): void {
  spareThreads.delete(spare);
  clearTimeout(spare.timer);
  void spare.worker.terminate();
}

/** Keeps an idle thread of a closing pool for the next pool, when sharing is on; false otherwise. */
function keepSpare(worker: Worker, nice: number): boolean {
  if (spareIdleMs === 0) return false;
  forgetListeners(worker);
  worker.unref();
  const spare: SpareThread = { worker, nice, timer: setTimeout(() => endSpare(spare), spareIdleMs) };
  spare.timer.unref();
  // A spare that dies (out of memory, say) is simply gone.
  worker.on('error', () => spareThreads.delete(spare));
  worker.on('exit', () => spareThreads.delete(spare));
  spareThreads.add(spare);
  return true;
}

/** Removes a pool's (or the spares') listeners; Node's own, which reference the worker's port, stay. */
function forgetListeners(worker: Worker): void {
  for (const event of ['message', 'error', 'exit'] as const) worker.removeAllListeners(event);
}

/** A spare thread started with this nice value, taken out of the spares; none when there is none. */
function takeSpare(nice: number): Worker | null {
  for (const spare of spareThreads) {
    if (spare.nice !== nice) continue;
    spareThreads.delete(spare);
    clearTimeout(spare.timer);
    forgetListeners(spare.worker);
    return spare.worker;
  }
  return null;
}

/**
 * A bounded pool of worker threads for CPU-heavy pure work (STL parsing and previews, anatomy meshes, later
 * simulations), so that the HTTP event loop keeps answering while a job computes
 * (docs/decisions/jobs-cpu-work-off-event-loop.md). Threads start on demand, one task each at a time; tasks beyond
 * `concurrency` wait in order, short tasks ahead of long ones (`CpuTask.long`). A thread that crashes or is terminated (cancellation) is replaced by a fresh one.
 */
export class CpuPool implements CpuRunner {
  readonly concurrency: number;
  private readonly idleMs: number;
  private readonly nice: number;
  private readonly threads = new Set<Thread>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: CpuPoolOptions = {}) {
    this.concurrency = Math.max(1, Math.floor(options.threads ?? defaultCpuThreads()));
    this.idleMs = options.idleMs ?? 60_000;
    this.nice = Math.min(19, Math.max(0, Math.floor(options.nice ?? 10)));
  }

  run<Input, Output>(task: CpuTask<Input, Output>, input: Input, options: CpuRunOptions = {}): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      if (this.closed) return reject(new CpuPoolClosedError());
      if (options.signal?.aborted) return reject(options.signal.reason);
      const pending: Pending = {
        id: this.nextId++,
        task: task as CpuTask<unknown, unknown>,
        input,
        options,
        resolve: resolve,
        reject,
      };
      if (options.signal) {
        pending.onAbort = () => this.cancel(pending, options.signal!.reason);
        options.signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Tasks running now (for tests and diagnostics). */
  get busy(): number {
    return [...this.threads].filter((thread) => thread.current).length;
  }

  /** Refuses new tasks, rejects queued and running ones, ends every thread. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) this.settle(pending, () => pending.reject(new CpuPoolClosedError()));
    const threads = [...this.threads];
    this.threads.clear();
    const ending: Worker[] = [];
    for (const thread of threads) {
      if (thread.idleTimer) clearTimeout(thread.idleTimer);
      const current = thread.current;
      thread.current = null;
      if (current) this.settle(current, () => current.reject(new CpuPoolClosedError()));
      // A running task's thread always ends (its computation cannot be interrupted); a ready idle one may be kept.
      if (current || !thread.started || !keepSpare(thread.worker, this.nice)) ending.push(thread.worker);
    }
    await Promise.all(ending.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = [...this.threads].find((candidate) => !candidate.current) ?? this.spawn();
      if (!thread) return;
      // Short tasks first (docs/decisions/jobs-cpu-work-off-event-loop.md): the first queued task that is not long,
      // else the first long one.
      const short = this.queue.findIndex((queued) => !queued.task.long);
      const [pending] = this.queue.splice(short >= 0 ? short : 0, 1);
      this.start(thread, pending!);
    }
  }

  private spawn(): Thread | null {
    if (this.closed || this.threads.size >= this.concurrency) return null;
    const spare = takeSpare(this.nice);
    const worker =
      spare ?? new Worker(BOOTSTRAP, { eval: true, execArgv: threadExecArgv(), workerData: { nice: this.nice } });
    let readyResolve!: () => void;
    const thread: Thread = {
      worker,
      ready: new Promise<void>((resolve) => (readyResolve = resolve)),
      started: false,
      current: null,
      idleTimer: null,
    };
    if (spare) {
      thread.started = true;
      readyResolve();
    }
    worker.on('message', (reply: ThreadReply) => {
      if (reply.type === 'ready') {
        thread.started = true;
        return readyResolve();
      }
      this.onReply(thread, reply);
    });
    worker.on('error', (error) => this.lose(thread, error));
    worker.on('exit', (code) => this.lose(thread, new Error(`The CPU worker thread stopped (exit code ${code}).`)));
    this.threads.add(thread);
    return thread;
  }

  private start(thread: Thread, pending: Pending): void {
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
    thread.current = pending;
    // Busy threads keep the process alive (a CLI awaiting a task must not exit); idle ones do not.
    thread.worker.ref();
    const message: ThreadRun = {
      type: 'run',
      id: pending.id,
      module: pending.task.module,
      name: pending.task.name,
      input: pending.input,
    };
    void thread.ready.then(() => {
      if (thread.current !== pending) return;
      try {
        thread.worker.postMessage(message, [...(pending.options.transfer ?? [])]);
      } catch (error) {
        // The input could not be cloned: the thread never saw it and stays usable.
        this.finish(thread, pending, () => pending.reject(error));
      }
    });
  }

  private onReply(thread: Thread, reply: Exclude<ThreadReply, { type: 'ready' }>): void {
    const pending = thread.current;
    if (!pending || pending.id !== reply.id) return;
    if (reply.type === 'progress') {
      pending.options.onProgress?.(reply.fraction, reply.message);
      return;
    }
    if (reply.type === 'done') this.finish(thread, pending, () => pending.resolve(reply.output));
    else
      this.finish(thread, pending, () =>
        pending.reject(new CpuTaskError(reply.error.message, reply.error.name, reply.error.stack)),
      );
  }

  /** The task ended in its thread: settle it, keep the thread for the next one. */
  private finish(thread: Thread, pending: Pending, settle: () => void): void {
    thread.current = null;
    this.settle(pending, settle);
    if (!this.threads.has(thread)) return;
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => {
      if (thread.current) return;
      this.threads.delete(thread);
      void thread.worker.terminate();
    }, this.idleMs);
    thread.idleTimer.unref();
    this.dispatch();
  }

  private settle(pending: Pending, settle: () => void): void {
    if (pending.onAbort) pending.options.signal?.removeEventListener('abort', pending.onAbort);
    settle();
  }

  /** A thread died (crash, out of memory, terminated): its task fails with why; the next task gets a new thread. */
  private lose(thread: Thread, error: unknown): void {
    if (!this.threads.delete(thread)) return;
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    const pending = thread.current;
    thread.current = null;
    if (pending) this.settle(pending, () => pending.reject(error));
    void thread.worker.terminate();
    this.dispatch();
  }

  private cancel(pending: Pending, reason: unknown): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(pending, () => pending.reject(reason));
      return;
    }
    const thread = [...this.threads].find((candidate) => candidate.current === pending);
    // Computation cannot be interrupted inside a thread: the thread goes, a fresh one takes the next task.
    if (thread) this.lose(thread, reason);
  }
}
