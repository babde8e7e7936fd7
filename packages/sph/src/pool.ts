import { once } from 'node:events';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { NeighbourList, PairPrecision } from './neighbours';
import type { SharedRegion } from './particles';
import type { FluidPasses, PassSettings } from './passes';
import { ThreadTrial } from './poolTrial';
import { performanceClock, spinFromEnvironment, Waiter } from './poolWait';
import { kernelsModule, type WasmMemory, type WasmModule } from './wasmKernels';

/** Phases a fluid pass may chain (`WorkerPool.run`): the acoustic step's three passes under one publication. */
export const MAX_PHASES = 3;

/** Slots of the shared control array (Int32). */
export const Control = {
  /**
   * Command generation, a sequence lock: the main thread makes it odd, writes the command, then makes it even
   * (published). A worker takes a command only if it read the same even generation before and after it.
   */
  Generation: 0,
  /** Command: a `Pass` code (the first phase of a fluid pass), or `Reload` / `Exit` / `Attach` / a table pass. */
  Command: 1,
  /** Workers that have finished the current broadcast command (not used by the fluid's chunked passes). */
  Done: 2,
  /** Set to 1 by a worker whose pass threw. */
  Error: 3,
  /**
   * Threads the fluid's passes run on (`WorkerPool.active`, set by `balance`): the pass is split into
   * `active · CHUNKS_PER_THREAD` chunks, and workers with an index ≥ it do not claim any.
   */
  Active: 4,
  /** Phases of the current fluid pass (1 … `MAX_PHASES`). */
  Phases: 5,
  /** First of `MAX_PHASES` slots: the `Pass` code of each phase. */
  Phase: 6,
  /** First of `MAX_PHASES` slots: chunks of each phase completed. */
  Completed: 6 + MAX_PHASES,
  /**
   * First of `MAX_PHASES · threads` claim counters: counter `k · threads + t` hands out thread t's chunks of phase k,
   * `t·K … t·K + K − 1` (`K = CHUNKS_PER_THREAD`), with `Atomics.add`; it is ≥ K once they are all taken (and stays so
   * for the threads beyond `Active` and the phases beyond `Phases`).
   */
  Next: 6 + 2 * MAX_PHASES,
} as const;

/**
 * Chunks per thread of a fluid pass. Each thread claims its own chunks first (the same particles every pass, so
 * they stay in its core's cache), then the chunks others have not claimed yet: a thread that wakes late or is
 * descheduled by another process leaves its chunks to the others instead of holding everyone at the barrier.
 */
export const CHUNKS_PER_THREAD = 8;

/** First slot of the chunk bounds in a control array for `threads` threads (`chunks + 1` slots follow). */
export function boundsSlot(threads: number): number {
  return Control.Next + MAX_PHASES * threads;
}

/**
 * Claims the next chunk of phase `phase` of the current fluid pass for thread `thread` of `threads`: its own chunks
 * first, then those of the threads after it. Returns the chunk index, or −1 when every chunk is taken.
 */
export function claimChunk(ctrl: Int32Array, thread: number, threads: number, phase = 0): number {
  const next = Control.Next + phase * threads;
  for (let k = 0; k < threads; k++) {
    let owner = thread + k;
    if (owner >= threads) owner -= threads;
    const c = Atomics.add(ctrl, next + owner, 1);
    if (c < CHUNKS_PER_THREAD) return owner * CHUNKS_PER_THREAD + c;
  }
  return -1;
}

/**
 * Thread `thread`'s share of the current fluid pass (the main thread's and every worker's): phase by phase, claims
 * chunks and runs them. A chunk of a phase after the first starts only once every chunk of the phase before it is
 * complete (a particle there reads its neighbours' results of that phase): a wait inside the pass, short because
 * the threads are awake already, instead of a publication and a wake-up per pass. The phase's pass code, the time
 * step and the chunk count are read after each successful claim: a claim is always of the pass being run, which
 * cannot end while the chunk is unfinished. A thread beyond `Active` does nothing. Only the last phase writes the
 * per-chunk partials. Returns the first error a chunk threw, else null (a worker's is also flagged in `Control.Error`).
 */
export function runChunks(
  passes: FluidPasses,
  ctrl: Int32Array,
  values: Float64Array,
  thread: number,
  threads: number,
  phaseWaiter: Waiter,
): unknown {
  // A stale read here only makes this thread skip a pass (others do its chunks) or try claims that fail.
  if (thread >= Atomics.load(ctrl, Control.Active)) return null;
  const bounds = boundsSlot(threads);
  let error: unknown = null;
  for (let phase = 0; phase < MAX_PHASES; phase++) {
    for (let c = claimChunk(ctrl, thread, threads, phase); c >= 0; c = claimChunk(ctrl, thread, threads, phase)) {
      const chunks = CHUNKS_PER_THREAD * Atomics.load(ctrl, Control.Active);
      const last = phase === Atomics.load(ctrl, Control.Phases) - 1;
      if (phase > 0) phaseWaiter.until(ctrl, Control.Completed + phase - 1, chunks);
      const pass = Atomics.load(ctrl, Control.Phase + phase);
      // The count changes with open boundaries (particles created and removed between advection steps).
      passes.fluid.count = ctrl[bounds + chunks]!;
      try {
        const partial = passes.runPass(pass, ctrl[bounds + c]!, ctrl[bounds + c + 1]!, values[Values.Dt]!, c, chunks);
        if (last) values[Values.Partials + c] = partial;
      } catch (e) {
        // A worker reports it before counting the chunk complete, so the main thread sees it when the pass ends.
        if (thread !== 0) Atomics.store(ctrl, Control.Error, 1);
        error ??= e;
      }
      const slot = Control.Completed + phase;
      if (Atomics.add(ctrl, slot, 1) === chunks - 1) Atomics.notify(ctrl, slot);
    }
  }
  return error;
}

/** Commands besides the passes. */
export const Command = {
  /** Re-attach the neighbour-list buffers sent on the worker's port (after the lists grew). */
  Reload: 100,
  /** Leave the loop and exit. */
  Exit: 101,
  /** Build the pass table described by the `TableSpec` sent on the worker's port (`WorkerPool.attach`). */
  Attach: 102,
  /** Commands from here on run attached tables: `TableBase · (table + 1) + pass` (`WorkerPool.runTable`). */
  TableBase: 1000,
} as const;

/**
 * Passes of another body that the pool can run besides the fluid's (e.g. an elastic solid's,
 * `solidPasses.ts`). The table picks the particle range of each thread itself; like the fluid's passes, a
 * particle's arithmetic must not depend on the split.
 */
export interface PassTable {
  /** Runs pass `pass` (< `Command.Reload`) with time step `dt` (s) as thread `thread` of `threads`; returns a partial maximised over threads. */
  runThread(pass: number, thread: number, threads: number, dt: number): number;
}

/** How a worker builds an attached table: the factory `factory` exported by `module` (a URL), called with `data`. */
export interface TableSpec {
  module: string;
  factory: string;
  /** Plain data (structured-cloneable, SharedArrayBuffers shared). */
  data: unknown;
}

/** Slots of the shared values array (Float64): the time step, then one partial per chunk (tables: per thread). */
export const Values = {
  /** Time step of the pass, s. */
  Dt: 0,
  /** First partial (max speed², m²/s²): per chunk for the fluid's passes, per thread for tables. */
  Partials: 1,
} as const;

/**
 * The work units (a particle plus its fluid and wall pairs, as counted by `balance`) per thread that session 15
 * measured as the point where one more thread is worth its fork–join under load (docs/decisions/sph-threads.md,
 * "How many threads"): a second thread cost 20 % more CPU at 66,000 units per pass and 5–9 % at 135,000. A reference
 * value for `SPH_MIN_WORK_PER_THREAD`; by default the pool times both choices instead (`ThreadTrial`).
 */
export const MIN_WORK_PER_THREAD = 60_000;

/**
 * Threads to run a pass of `work` units on, of the `threads` allowed, by the work rule: one more per
 * `minWorkPerThread` units, at least one (0: always all threads).
 */
export function threadsForWork(work: number, threads: number, minWorkPerThread: number): number {
  if (minWorkPerThread <= 0) return threads;
  return Math.max(1, Math.min(threads, Math.floor(work / minWorkPerThread)));
}

/**
 * The thread rule to use when none is set: the threshold `SPH_MIN_WORK_PER_THREAD` (for measurement; 0: every
 * thread), else null: the pool times 1 thread against all of them (`ThreadTrial`).
 */
export function defaultMinWorkPerThread(): number | null {
  const forced = process.env.SPH_MIN_WORK_PER_THREAD;
  return forced !== undefined && forced !== '' ? Number(forced) : null;
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
 * Worker bootstrap: registers tsx in the worker, then imports `worker.ts`. (Node 20 does not apply
 * `execArgv: ['--import', 'tsx']` to a `.ts` worker entry: it fails with ERR_UNKNOWN_FILE_EXTENSION.)
 */
const WORKER_BOOTSTRAP = `import(${JSON.stringify(tsxApi())}).then(({ register }) => { register(); return import(${JSON.stringify(
  new URL('./worker.ts', import.meta.url).href,
)}); });`;

/** Shared storage of one body, as handed to a worker. */
export interface SharedBody {
  /** Slots allocated. */
  capacity: number;
  /** Live particles. */
  count: number;
  /** Field buffers (`ParticleArrays.buffers()`). */
  buffers: Record<string, SharedRegion>;
}

/** Shared neighbour list, as handed to a worker. */
export interface SharedList {
  /** Rows (fluid capacity). */
  rows: number;
  /** Precision of the cached pair arrays. */
  precision: PairPrecision;
  /** Buffers (`NeighbourList.buffers()`). */
  buffers: Record<string, SharedRegion>;
}

/** Everything a worker needs (its `workerData`). */
export interface WorkerInit {
  /** This worker's thread index (1 … threads − 1; the main thread is 0). */
  index: number;
  /** Threads in all, main thread included. */
  threads: number;
  /** Busy-wait iterations before sleeping (every wait), or null: adaptive waits (`Waiter`). */
  spin: number | null;
  /** Control array buffer (Int32). */
  control: SharedArrayBuffer;
  /** Values array buffer (Float64). */
  values: SharedArrayBuffer;
  /** The fluid's storage and settings; absent for a pool that runs only attached tables. */
  fluid?: FluidWorkerInit;
  /** Port on which `Reload` buffers and `Attach` specs arrive. */
  port: MessagePort;
}

/** The fluid part of `WorkerInit`. */
export interface FluidWorkerInit {
  /** Pass settings. */
  settings: PassSettings;
  /** Fluid storage. */
  fluid: SharedBody;
  /** Wall storage. */
  wall: SharedBody;
  /** Fluid–fluid neighbour list. */
  inner: SharedList;
  /** Fluid–wall neighbour list. */
  contact: SharedList;
  /**
   * The shared memory holding every array of the fluid's passes and the compiled kernels, when they run on the
   * WebAssembly backend (each worker instantiates the kernels over the same memory).
   */
  wasm?: { memory: WasmMemory; module: WasmModule };
  /** Fluid cell list buffers (`CellLinkedList.buffers()`). */
  cells: Record<string, SharedRegion>;
  /** Wall cell list buffers. */
  wallCells: Record<string, SharedRegion>;
}

/** Buffers sent with `Command.Reload`. */
export interface ReloadMessage {
  /** Fluid–fluid list buffers. */
  inner: Record<string, SharedRegion>;
  /** Fluid–wall list buffers. */
  contact: Record<string, SharedRegion>;
}

/**
 * Persistent worker threads that run the particle passes of one simulation over the shared storage. The
 * main thread is thread 0 and works too; `threads − 1` workers help. A command is published through a
 * generation counter in a shared Int32Array (`Atomics.notify`); no messages and no allocation per pass.
 * - The fluid's passes run on the `active` threads: all of them or one, whichever the trial timed faster
 *   (`ThreadTrial`, advection step by advection step), or by the work rule when a threshold is set
 *   (`minWorkPerThread`, `threadsForWork`); the simulation runs them on the calling thread when that is one. A pass is split into
 *   `CHUNKS_PER_THREAD · active` chunks of about equal work. Every active thread
 *   (the main one first) claims its own chunks with `Atomics.add`, then any left of the others (`claimChunk`);
 *   the main thread then waits for the completed-chunk count. A worker that is late or
 *   descheduled does not stall the pass, and it needs no acknowledgement: it only ever claims chunks of the
 *   current pass, and reads the pass and its time step after a successful claim (the main thread cannot move on
 *   while a claimed chunk is unfinished). Reductions (the maximum speed) are per-chunk partials, combined in
 *   chunk order.
 * - Other commands (`Reload`, `Attach`, `Exit`) and the passes of attached tables (other bodies' `PassTable`,
 *   static per-thread ranges) are broadcast: every worker runs them and the main thread waits for all of them.
 * A pool without fluid passes runs only tables. Every wait spins, then sleeps in `Atomics.wait` (`Waiter`: for a
 * time that adapts to how soon the partner arrives).
 */
export class WorkerPool {
  /** Threads in all, main thread included. */
  readonly threads: number;
  private readonly ctrl: Int32Array;
  private readonly values: Float64Array;
  private readonly workers: Worker[];
  private readonly ports: MessagePort[];
  private readonly passes: FluidPasses | null;
  /** Attached tables (main-thread side), in attach order. */
  private readonly tables: PassTable[] = [];
  private innerBuffer: ArrayBufferLike | undefined;
  private contactBuffer: ArrayBufferLike | undefined;
  private closed = false;
  /** This thread's waits, one per kind (each adapts to its own partner's timing). */
  private readonly phaseWaiter: Waiter;
  private readonly passWaiter: Waiter;
  private readonly doneWaiter: Waiter;
  /** Chunks of a fluid pass on `active` threads (`active · CHUNKS_PER_THREAD`). */
  private chunks: number;
  /**
   * Threads the fluid's passes run on, of `threads`: chosen by `balance` from the work per pass
   * (`threadsForWork`). At 1 the simulation runs its fluid passes on the calling thread without the pool.
   */
  active: number;
  /**
   * The thread rule: work units per thread below which a fluid pass runs on fewer threads (`threadsForWork`; 0:
   * always all), or null: 1 thread or all, whichever `trial` timed faster. Takes effect at the next `balance`.
   */
  minWorkPerThread: number | null = null;
  /** Times 1 thread against all of them, advection step by advection step (rule null). */
  readonly trial: ThreadTrial;
  /** Acoustic steps run with the fluid's passes on t threads, index t (`endAdvectionStep`). */
  readonly acousticStepsOn: number[];
  /** Work units of a pass at the last `balance`. */
  workPerPass = 0;
  /** Clock reading at the start of the advection step, µs. */
  private stepStart = 0;
  /** Cumulative work per particle (scratch of `balance`). */
  private readonly work: Float64Array;

  private constructor(
    passes: FluidPasses | null,
    threads: number,
    ctrl: Int32Array,
    values: Float64Array,
    workers: Worker[],
    ports: MessagePort[],
    spin: number | null,
  ) {
    this.phaseWaiter = new Waiter(spin);
    this.passWaiter = new Waiter(spin);
    this.doneWaiter = new Waiter(spin);
    this.trial = new ThreadTrial(threads);
    this.acousticStepsOn = new Array<number>(threads + 1).fill(0);
    this.passes = passes;
    this.threads = threads;
    this.chunks = CHUNKS_PER_THREAD * threads;
    this.active = threads;
    this.ctrl = ctrl;
    this.values = values;
    this.workers = workers;
    this.ports = ports;
    this.innerBuffer = passes?.inner.j.buffer;
    this.contactBuffer = passes?.contact.j.buffer;
    // By capacity: open boundaries change the particle count between advection steps.
    this.work = new Float64Array((passes?.fluid.capacity ?? 0) + 1);
  }

  /**
   * Starts `threads − 1` workers (each runs `worker.ts` through tsx) and waits until they are ready. Waiting
   * threads spin for an adaptive time before they sleep (`Waiter`), or `spin` iterations when given (else
   * `SPH_SPIN`; for measurement). `passes` null: a pool for attached tables only. `minWorkPerThread`: see the field
   * (default `defaultMinWorkPerThread()`).
   */
  static async start(
    passes: FluidPasses | null,
    threads: number,
    spin: number | null = spinFromEnvironment(),
    minWorkPerThread = defaultMinWorkPerThread(),
  ): Promise<WorkerPool> {
    if (!Number.isInteger(threads) || threads < 2) throw new RangeError('a pool needs at least 2 threads');
    const chunks = CHUNKS_PER_THREAD * threads;
    const ctrl = new Int32Array(new SharedArrayBuffer((boundsSlot(threads) + chunks + 1) * 4));
    // All chunks start claimed, so a worker finds nothing to do until the first fluid pass.
    ctrl.fill(CHUNKS_PER_THREAD, Control.Next, Control.Next + MAX_PHASES * threads);
    ctrl[Control.Active] = threads;
    const values = new Float64Array(new SharedArrayBuffer((Values.Partials + Math.max(threads, chunks)) * 8));
    const body = (p: FluidPasses['fluid']): SharedBody => ({
      capacity: p.capacity,
      count: p.count,
      buffers: p.buffers(),
    });
    const list = (l: NeighbourList): SharedList => ({
      rows: l.start.length - 1,
      precision: l.precision,
      buffers: l.buffers(),
    });
    const fluidInit: FluidWorkerInit | undefined = passes
      ? {
          settings: passes.s,
          fluid: body(passes.fluid),
          wall: body(passes.wall),
          inner: list(passes.inner),
          contact: list(passes.contact),
          ...(passes.wasmMemory ? { wasm: { memory: passes.wasmMemory, module: kernelsModule() } } : {}),
          cells: passes.cells.buffers(),
          wallCells: passes.wallCells.buffers(),
        }
      : undefined;
    const workers: Worker[] = [];
    const ports: MessagePort[] = [];
    for (let t = 1; t < threads; t++) {
      const channel = new MessageChannel();
      const init: WorkerInit = {
        index: t,
        threads,
        spin,
        control: ctrl.buffer,
        values: values.buffer,
        fluid: fluidInit,
        port: channel.port2,
      };
      const worker = new Worker(WORKER_BOOTSTRAP, {
        eval: true,
        execArgv: [],
        workerData: init,
        transferList: [channel.port2],
      });
      workers.push(worker);
      ports.push(channel.port1);
    }
    try {
      await Promise.all(workers.map((w) => once(w, 'message')));
    } catch (error) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw error;
    }
    for (const w of workers) w.unref();
    for (const p of ports) p.unref();
    const pool = new WorkerPool(passes, threads, ctrl, values, workers, ports, spin);
    pool.minWorkPerThread = minWorkPerThread;
    pool.balance();
    return pool;
  }

  /** Re-sends the neighbour-list buffers to the workers if the lists grew (rare). */
  syncBuffers(): void {
    if (!this.passes) return;
    const { inner, contact } = this.passes;
    if (inner.j.buffer !== this.innerBuffer || contact.j.buffer !== this.contactBuffer) {
      const message: ReloadMessage = { inner: inner.buffers(), contact: contact.buffers() };
      for (const port of this.ports) port.postMessage(message);
      this.dispatch(Command.Reload, 0);
      this.innerBuffer = inner.j.buffer;
      this.contactBuffer = contact.j.buffer;
    }
  }

  /**
   * After a neighbour rebuild: chooses the threads the fluid's passes run on from the work per pass (`active`,
   * `threadsForWork`) and splits the particles into `active · CHUNKS_PER_THREAD` contiguous chunks with about equal
   * work (one unit per particle plus its fluid and wall pairs). Neither changes the result, only which thread
   * computes a particle.
   */
  balance(): void {
    if (!this.passes) return;
    const n = this.passes.fluid.count;
    const { start: is, end: ie } = this.passes.inner;
    const { start: cs, end: ce } = this.passes.contact;
    // Work before particle i: one unit per particle plus its fluid and wall pairs.
    const work = this.work;
    work[0] = 0;
    for (let i = 0; i < n; i++) work[i + 1] = work[i]! + 1 + (ie[i]! - is[i]!) + (ce[i]! - cs[i]!);
    const total = work[n]!;
    const ctrl = this.ctrl;
    // Between passes (no chunk is open), so no worker reads these while they change.
    this.workPerPass = total;
    const rule = this.minWorkPerThread;
    this.active = rule === null ? this.trial.threads : threadsForWork(total, this.threads, rule);
    Atomics.store(ctrl, Control.Active, this.active);
    this.chunks = CHUNKS_PER_THREAD * this.active;
    const bounds = boundsSlot(this.threads);
    ctrl[bounds] = 0;
    let lo = 0;
    const chunks = this.chunks;
    for (let c = 1; c < chunks; c++) {
      const target = (total * c) / chunks;
      let hi = n;
      // Smallest i ≥ lo with the work before i ≥ target.
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (work[mid]! < target) lo = mid + 1;
        else hi = mid;
      }
      ctrl[bounds + c] = lo;
    }
    ctrl[bounds + chunks] = n;
    this.balancedCount = n;
  }

  /** The particle count of the last `balance` (the workers take the count from the chunk bounds). */
  balancedCount = -1;

  /**
   * Before an advection step of the fluid: starts its clock, and applies the trial's thread count for it (rule null)
   * so that the step's first pass already runs on it.
   */
  beginAdvectionStep(): void {
    this.stepStart = performanceClock();
    if (this.minWorkPerThread === null && this.active !== this.trial.threads) this.balance();
  }

  /**
   * After the advection step begun by `beginAdvectionStep`, which ran `acousticSteps` acoustic steps: counts them
   * to the threads used and gives its time to the trial (rule null), which picks the threads of the next step.
   */
  endAdvectionStep(acousticSteps: number): void {
    this.acousticStepsOn[this.active] = (this.acousticStepsOn[this.active] ?? 0) + acousticSteps;
    if (this.minWorkPerThread !== null) return;
    this.trial.record((performanceClock() - this.stepStart) / 1e6, acousticSteps, this.workPerPass);
  }

  /** Waits of the main thread so far (`Waiter.counts`): inside a pass, at its end, for broadcast commands. */
  get waits(): Record<'phase' | 'pass' | 'done', Waiter['counts'] & { budget: number }> {
    const of = (w: Waiter): Waiter['counts'] & { budget: number } => ({ ...w.counts, budget: w.budget });
    return { phase: of(this.phaseWaiter), pass: of(this.passWaiter), done: of(this.doneWaiter) };
  }

  /**
   * Runs fluid pass `pass` with time step `dt` (s) over all chunks on the active threads, then `then` and `thenAgain`
   * if given (non-zero pass codes) in the same publication: each starts once every chunk of the one before is
   * complete (`runChunks`). Returns the maximum of the last pass's per-chunk partials (m²/s² for the speed passes,
   * else 0), combined in chunk order.
   */
  run(pass: number, dt: number, then = 0, thenAgain = 0): number {
    if (this.closed) throw new Error('worker pool is closed');
    const passes = this.passes;
    if (!passes) throw new Error('this pool has no fluid passes');
    const ctrl = this.ctrl;
    const chunks = this.chunks;
    this.values[Values.Dt] = dt;
    const threads = this.threads;
    const active = this.active;
    const phases = thenAgain !== 0 ? 3 : then !== 0 ? 2 : 1;
    this.publish(pass, () => {
      Atomics.store(ctrl, Control.Phases, phases);
      Atomics.store(ctrl, Control.Phase, pass);
      Atomics.store(ctrl, Control.Phase + 1, then);
      Atomics.store(ctrl, Control.Phase + 2, thenAgain);
      for (let k = 0; k < MAX_PHASES; k++) {
        Atomics.store(ctrl, Control.Completed + k, 0);
        // Opens the chunks of the active threads for claiming: after the phases and dt are written. The others'
        // stay claimed (reset, so that failed claims never wrap the counter around).
        const next = Control.Next + k * threads;
        for (let t = 0; t < threads; t++) {
          Atomics.store(ctrl, next + t, k < phases && t < active ? 0 : CHUNKS_PER_THREAD);
        }
      }
    });
    // An error here is thrown only after every chunk is done: no worker may still run this pass afterwards.
    const error = runChunks(passes, ctrl, this.values, 0, threads, this.phaseWaiter);
    this.passWaiter.until(ctrl, Control.Completed + phases - 1, chunks);
    if (error !== null) throw error;
    this.checkError(pass);
    return this.maxPartial(chunks);
  }

  private maxPartial(count: number): number {
    let m = this.values[Values.Partials]!;
    for (let t = 1; t < count; t++) {
      const v = this.values[Values.Partials + t]!;
      if (v > m) m = v;
    }
    return m;
  }

  /** Publishes `command` (the generation's sequence lock around it), runs `prepare` inside it, wakes the workers. */
  private publish(command: number, prepare?: () => void): void {
    const ctrl = this.ctrl;
    Atomics.add(ctrl, Control.Generation, 1);
    Atomics.store(ctrl, Control.Command, command);
    prepare?.();
    Atomics.add(ctrl, Control.Generation, 1);
    Atomics.notify(ctrl, Control.Generation);
  }

  private checkError(command: number): void {
    if (Atomics.load(this.ctrl, Control.Error) !== 0) {
      Atomics.store(this.ctrl, Control.Error, 0);
      throw new Error(`a worker failed in command ${command}`);
    }
  }

  /** Runs a broadcast command (every worker runs it once; the main thread waits for all of them). */
  private dispatch(command: number, dt: number): void {
    if (this.closed) throw new Error('worker pool is closed');
    const ctrl = this.ctrl;
    this.values[Values.Dt] = dt;
    this.publish(command, () => Atomics.store(ctrl, Control.Done, 0));
    if (command >= Command.TableBase) {
      const table = this.tables[Math.floor(command / Command.TableBase) - 1]!;
      this.values[Values.Partials] = table.runThread(command % Command.TableBase, 0, this.threads, dt);
    }
    this.doneWaiter.until(ctrl, Control.Done, this.threads - 1);
    this.checkError(command);
  }

  /**
   * Attaches a pass table: `table` is this thread's, and every worker builds its own from `spec` (over the
   * same shared storage). Returns the table's index for `runTable`. Not per step: it sends messages.
   */
  attach(table: PassTable, spec: TableSpec): number {
    for (const port of this.ports) port.postMessage(spec);
    this.dispatch(Command.Attach, 0);
    this.tables.push(table);
    return this.tables.length - 1;
  }

  /**
   * Runs pass `pass` of attached table `table` with time step `dt` (s) on all threads; returns the maximum of
   * the per-thread partials, combined in thread order.
   */
  runTable(table: number, pass: number, dt: number): number {
    this.dispatch(Command.TableBase * (table + 1) + pass, dt);
    return this.maxPartial(this.threads);
  }

  /** True once `close` has been called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Stops the workers and waits for them to exit. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const w of this.workers) w.ref();
    const exits = this.workers.map((w) => once(w, 'exit'));
    this.dispatch(Command.Exit, 0);
    this.closed = true;
    for (const p of this.ports) p.close();
    await Promise.all(exits);
  }
}
