// Whether the fluid's passes should run on every thread of the pool or on the calling thread alone, decided by
// timing both: a small case (e.g. the 2D dam break at dp 0.025, a pass of about 0.1 ms per thread with the
// WebAssembly kernels) gains from a second thread only if waking and waiting for it costs less than the work it
// takes over, which depends on the machine and its load, not on the case alone (docs/decisions/sph-threads.md,
// session 17). The choice changes only which thread computes a particle, never the result.

/**
 * Thread counts of a trial's advection steps, `all` standing for every thread: alternating so that a trend (the
 * flow speeding up, another program starting) weighs on both alike.
 */
const TRIAL_ORDER = ['all', 1, 1, 'all', 'all', 1, 1, 'all'] as const;

/**
 * Time per acoustic step on all threads, as a fraction of that on one, below which all threads are kept: more threads
 * cost more CPU (a second thread 5–20 % on the 2D dam break, docs/decisions/sph-threads.md), which a shared server
 * pays for, so a gain within the noise of a few timed steps does not justify them.
 */
export const ALL_THREADS_BELOW = 0.95;

/** Advection steps after a decision before it is tried again (the machine's load may have changed). */
export const RETRIAL_STEPS = 1000;

/** Factor by which the work per pass may change after a decision before it is tried again. */
export const RETRIAL_WORK_FACTOR = 1.5;

/** Median of a non-empty list. */
function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/**
 * Chooses between 1 thread and all `threads` for the fluid's passes, advection step by advection step: first one
 * warm-up step on all threads (the workers' first passes compile and fault in memory), then the `TRIAL_ORDER`
 * steps, then the thread count whose median time per acoustic step was lower (all threads by `ALL_THREADS_BELOW`), until `RETRIAL_STEPS` advection steps
 * have passed or the work per pass has changed by `RETRIAL_WORK_FACTOR`, when it tries again (without warm-up).
 * Pure bookkeeping: the caller times the steps.
 */
export class ThreadTrial {
  /** Threads of the advection step about to run (or running). */
  threads: number;
  /** The thread count chosen by the last completed trial (null before the first). */
  decided: number | null = null;
  /** Trials completed. */
  trials = 0;
  private readonly all: number;
  /** Thread counts of the trial steps still to run, the current one first; empty between trials. */
  private queue: number[];
  /** Whether the current step is the warm-up (not timed). */
  private warmUp: boolean;
  /** Seconds per acoustic step of the current trial, per thread count. */
  private samples = new Map<number, number[]>();
  private decidedWork = 0;
  private sinceDecision = 0;

  constructor(threads: number) {
    this.all = threads;
    this.queue = this.order();
    this.warmUp = true;
    this.threads = threads;
  }

  /**
   * Records the advection step just run on `threads` threads: `seconds` of wall clock for `acousticSteps` acoustic
   * steps, with `work` units per pass (the pool's count after the step's rebuild). Sets `threads` for the next step.
   */
  record(seconds: number, acousticSteps: number, work: number): void {
    if (this.warmUp) {
      this.warmUp = false;
    } else if (this.queue.length > 0) {
      // A step without acoustic steps (the end time reached) carries no time per step: run it again.
      if (acousticSteps > 0) {
        const list = this.samples.get(this.threads) ?? [];
        list.push(seconds / acousticSteps);
        this.samples.set(this.threads, list);
        this.queue.shift();
        if (this.queue.length === 0) this.decide(work);
      }
    } else {
      this.sinceDecision++;
      const ratio = this.decidedWork > 0 ? work / this.decidedWork : 1;
      if (this.sinceDecision >= RETRIAL_STEPS || ratio > RETRIAL_WORK_FACTOR || ratio < 1 / RETRIAL_WORK_FACTOR) {
        this.queue = this.order();
        this.samples = new Map();
      }
    }
    this.threads = this.queue[0] ?? this.decided ?? this.all;
  }

  /** True while the steps are timed both ways (the warm-up included). */
  get trying(): boolean {
    return this.warmUp || this.queue.length > 0;
  }

  private order(): number[] {
    return TRIAL_ORDER.map((t) => (t === 'all' ? this.all : t));
  }

  /** Keeps all threads if their median time per acoustic step beats one thread's by the margin, else one. */
  private decide(work: number): void {
    const one = median(this.samples.get(1)!);
    const all = median(this.samples.get(this.all)!);
    this.decided = all < ALL_THREADS_BELOW * one ? this.all : 1;
    this.decidedWork = work;
    this.sinceDecision = 0;
    this.trials++;
  }
}
