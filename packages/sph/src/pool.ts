import { once } from 'node:events';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { NeighbourList } from './neighbours';
import type { FluidPasses, PassSettings } from './passes';

/** Slots of the shared control array (Int32). */
export const Control = {
  /** Command generation: bumped by the main thread to start a command. */
  Generation: 0,
  /** Command: a `Pass` code, or `Reload` / `Exit`. */
  Command: 1,
  /** Workers that have finished the current command. */
  Done: 2,
  /** Set to 1 by a worker whose pass threw. */
  Error: 3,
  /** First of the `threads + 1` range bounds: thread t owns particles `[bounds[t], bounds[t+1])`. */
  Bounds: 4,
} as const;

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

/** Slots of the shared values array (Float64): the time step, then one partial per thread. */
export const Values = {
  /** Time step of the pass, s. */
  Dt: 0,
  /** First per-thread partial (max speed², m²/s²). */
  Partials: 1,
} as const;

/**
 * Busy-wait iterations before a thread sleeps in `Atomics.wait`. Kept short: on the shared 2-core machine a
 * spinning thread takes the core from the thread it waits for (20,000 spins made 2 threads 2–3× slower than
 * 1; 0–100 spins were best, see docs/decisions/sph-threads.md).
 */
export const DEFAULT_SPIN = 100;

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
  buffers: Record<string, SharedArrayBuffer>;
}

/** Shared neighbour list, as handed to a worker. */
export interface SharedList {
  /** Rows (fluid capacity). */
  rows: number;
  /** Buffers (`NeighbourList.buffers()`). */
  buffers: Record<string, SharedArrayBuffer>;
}

/** Everything a worker needs (its `workerData`). */
export interface WorkerInit {
  /** This worker's thread index (1 … threads − 1; the main thread is 0). */
  index: number;
  /** Threads in all, main thread included. */
  threads: number;
  /** Busy-wait iterations before sleeping. */
  spin: number;
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
  /** Fluid cell list buffers (`CellLinkedList.buffers()`). */
  cells: Record<string, SharedArrayBuffer>;
  /** Wall cell list buffers. */
  wallCells: Record<string, SharedArrayBuffer>;
}

/** Buffers sent with `Command.Reload`. */
export interface ReloadMessage {
  /** Fluid–fluid list buffers. */
  inner: Record<string, SharedArrayBuffer>;
  /** Fluid–wall list buffers. */
  contact: Record<string, SharedArrayBuffer>;
}

/**
 * Persistent worker threads that run the particle passes of one simulation over the shared storage. The
 * main thread is thread 0 and works on its own range too; `threads − 1` workers take the others. A pass
 * is started by bumping a generation counter in a shared Int32Array (`Atomics.notify`) and joined by a
 * done counter (`Atomics.wait`): no messages and no allocation per pass. Reductions (the maximum speed) are
 * per-thread partials combined in thread order. Other bodies' passes (`PassTable`) can be attached and run on
 * the same threads; a pool without fluid passes runs only those.
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
  private readonly spin: number;
  /** Cumulative work per particle (scratch of `balance`). */
  private readonly work: Float64Array;

  private constructor(
    passes: FluidPasses | null,
    threads: number,
    ctrl: Int32Array,
    values: Float64Array,
    workers: Worker[],
    ports: MessagePort[],
    spin: number,
  ) {
    this.spin = spin;
    this.passes = passes;
    this.threads = threads;
    this.ctrl = ctrl;
    this.values = values;
    this.workers = workers;
    this.ports = ports;
    this.innerBuffer = passes?.inner.j.buffer;
    this.contactBuffer = passes?.contact.j.buffer;
    this.work = new Float64Array((passes?.fluid.count ?? 0) + 1);
  }

  /**
   * Starts `threads − 1` workers (each runs `worker.ts` through tsx) and waits until they are ready. Waiting
   * threads busy-wait `spin` iterations before they sleep. `passes` null: a pool for attached tables only.
   */
  static async start(passes: FluidPasses | null, threads: number, spin = DEFAULT_SPIN): Promise<WorkerPool> {
    if (!Number.isInteger(threads) || threads < 2) throw new RangeError('a pool needs at least 2 threads');
    const ctrl = new Int32Array(new SharedArrayBuffer((Control.Bounds + threads + 1) * 4));
    const values = new Float64Array(new SharedArrayBuffer((Values.Partials + threads) * 8));
    const body = (p: FluidPasses['fluid']): SharedBody => ({
      capacity: p.capacity,
      count: p.count,
      buffers: p.buffers(),
    });
    const list = (l: NeighbourList): SharedList => ({ rows: l.start.length - 1, buffers: l.buffers() });
    const fluidInit: FluidWorkerInit | undefined = passes
      ? {
          settings: passes.s,
          fluid: body(passes.fluid),
          wall: body(passes.wall),
          inner: list(passes.inner),
          contact: list(passes.contact),
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
        control: ctrl.buffer as SharedArrayBuffer,
        values: values.buffer as SharedArrayBuffer,
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
   * After a neighbour rebuild: splits the particles into contiguous ranges with about equal work (one unit
   * per particle plus its fluid and wall pairs) per thread. The split changes which thread computes a
   * particle, never the result.
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
    ctrl[Control.Bounds] = 0;
    let lo = 0;
    for (let t = 1; t < this.threads; t++) {
      const target = (total * t) / this.threads;
      let hi = n;
      // Smallest i ≥ lo with the work before i ≥ target.
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (work[mid]! < target) lo = mid + 1;
        else hi = mid;
      }
      ctrl[Control.Bounds + t] = lo;
    }
    ctrl[Control.Bounds + this.threads] = n;
  }

  /**
   * Runs pass `pass` with time step `dt` (s) on all threads and returns the maximum of the per-thread
   * partials (m²/s² for the speed passes, else 0), combined in thread order.
   */
  run(pass: number, dt: number): number {
    this.dispatch(pass, dt);
    return this.maxPartial();
  }

  private maxPartial(): number {
    let m = this.values[Values.Partials]!;
    for (let t = 1; t < this.threads; t++) {
      const v = this.values[Values.Partials + t]!;
      if (v > m) m = v;
    }
    return m;
  }

  private dispatch(command: number, dt: number): void {
    if (this.closed) throw new Error('worker pool is closed');
    const ctrl = this.ctrl;
    this.values[Values.Dt] = dt;
    Atomics.store(ctrl, Control.Done, 0);
    Atomics.store(ctrl, Control.Command, command);
    Atomics.add(ctrl, Control.Generation, 1);
    Atomics.notify(ctrl, Control.Generation);
    if (command < Command.Reload && this.passes) {
      const i1 = ctrl[Control.Bounds + 1]!;
      this.values[Values.Partials] = this.passes.runPass(command, 0, i1, dt, 0, this.threads);
    } else if (command >= Command.TableBase) {
      const table = this.tables[Math.floor(command / Command.TableBase) - 1]!;
      this.values[Values.Partials] = table.runThread(command % Command.TableBase, 0, this.threads, dt);
    }
    const target = this.threads - 1;
    let spins = 0;
    for (;;) {
      const done = Atomics.load(ctrl, Control.Done);
      if (done === target) break;
      if (++spins > this.spin) Atomics.wait(ctrl, Control.Done, done, 1000);
    }
    if (Atomics.load(ctrl, Control.Error) !== 0) {
      Atomics.store(ctrl, Control.Error, 0);
      throw new Error(`a worker failed in command ${command}`);
    }
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
    return this.maxPartial();
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
