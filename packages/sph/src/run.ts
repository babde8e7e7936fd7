/** Options of a cancellable run with progress (`runAsync` of the fluid and of the solid). */
export interface RunOptions<C> {
  /**
   * Called after every step with the fraction done, simulated time / end time (0 … 1, monotone; exactly 1 after
   * the last step), and the simulation's counters.
   */
  onProgress?: (fraction: number, counters: C) => void;
  /** Cancels the run: checked before every step. */
  signal?: AbortSignal;
  /** Wall-clock interval between yields to the event loop (so timers and aborts can fire), ms (default 20). */
  yieldEveryMs?: number;
}

/** How a run ended. */
export type RunStatus = 'completed' | 'cancelled';

/** What `runAsync` drives: a simulation that steps towards an end time and counts its simulated time. */
export interface Steppable<C> {
  /** Counters, with the simulated time in s. */
  readonly counters: C & { time: number };
  /** Advances by one (outer) step, never beyond `endTime` (s). */
  step(endTime: number): void;
}

/** Steps `sim` to simulated time `endTime` (s) synchronously, calling `onStep` after every step. */
export function runSync<C>(sim: Steppable<C>, endTime: number, onStep?: (counters: C) => void): void {
  while (sim.counters.time < endTime * (1 - 1e-12)) {
    sim.step(endTime);
    onStep?.(sim.counters);
  }
}

/**
 * Steps `sim` to simulated time `endTime` (s), reporting progress and yielding to the event loop every
 * `yieldEveryMs` so that `signal` can cancel it between steps. A cancelled run leaves a consistent state at the
 * end of a step, from which the run can continue or be checkpointed.
 */
export async function runAsync<C>(sim: Steppable<C>, endTime: number, options: RunOptions<C> = {}): Promise<RunStatus> {
  const { onProgress, signal, yieldEveryMs = 20 } = options;
  const stop = endTime * (1 - 1e-12);
  let last = performance.now();
  while (sim.counters.time < stop) {
    if (signal?.aborted) return 'cancelled';
    sim.step(endTime);
    const fraction = sim.counters.time < stop ? Math.min(1, sim.counters.time / endTime) : 1;
    onProgress?.(fraction, sim.counters);
    if (performance.now() - last >= yieldEveryMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      last = performance.now();
    }
  }
  return 'completed';
}
