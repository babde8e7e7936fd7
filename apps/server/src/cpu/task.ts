/**
 * What a CPU task may do besides computing: report progress to the caller (coalesced to one message per 100 ms,
 * the last always sent) and hand buffers of its result over instead of copying them.
 */
export interface CpuTaskContext {
  progress(fraction: number, message?: string): void;
  /** These buffers move to the caller with the result (they become unusable in the worker). */
  transfer(...buffers: ArrayBuffer[]): void;
}

/** A function a worker thread runs: structured-cloneable input in, structured-cloneable output out. */
export type CpuFunction<Input, Output> = (input: Input, context: CpuTaskContext) => Output | Promise<Output>;

/** A task the pool can run: an exported function of a module, named so that a worker thread can import it. */
export interface CpuTask<Input, Output> {
  /** URL of the module (`import.meta.url` of the module that exports the function). */
  readonly module: string;
  /** Name of the export. */
  readonly name: string;
  /** Only carries the types; the worker imports the module itself. */
  readonly fn: CpuFunction<Input, Output>;
  /**
   * A long task (a simulation's run segment, seconds to minutes): queued tasks that are not long start before it, so
   * that short work (a trial patient's placement, a case building, reading outcomes) does not wait behind run
   * segments. Among tasks of one kind the queue keeps its order.
   */
  readonly long?: boolean;
}

/**
 * Declares an exported function of the calling module as a task: `cpuTask(import.meta.url, 'f', f)`. The function
 * must depend on nothing but its input (worker threads share no state with the server), e.g. packages/* code.
 */
export function cpuTask<Input, Output>(
  module: string,
  name: string,
  fn: CpuFunction<Input, Output>,
  options: { long?: boolean } = {},
): CpuTask<Input, Output> {
  return { module, name, fn, ...(options.long ? { long: true } : {}) };
}

/** Pool → thread: run the export `name` of `module` with `input`. */
export interface ThreadRun {
  type: 'run';
  id: number;
  module: string;
  name: string;
  input: unknown;
}

/** Thread → pool. */
export type ThreadReply =
  | { type: 'ready' }
  | { type: 'progress'; id: number; fraction: number; message?: string }
  | { type: 'done'; id: number; output: unknown }
  | { type: 'failed'; id: number; error: { name: string; message: string; stack?: string } };

/**
 * The buffer behind `view` when the view is all of it (so handing it over gives away nothing else); none otherwise,
 * and the view is copied. For `CpuTaskContext.transfer(...wholeBuffer(view))`.
 */
export function wholeBuffer(view: ArrayBufferView): ArrayBuffer[] {
  const buffer = view.buffer;
  return buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === buffer.byteLength
    ? [buffer]
    : [];
}
