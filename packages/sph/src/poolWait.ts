// How a thread of the SPH worker pool waits for another: it busy-waits (spins) for a while, then sleeps in
// `Atomics.wait` until whoever changes the slot notifies it. A spin costs a core while it lasts; a sleep costs a
// futex wake-up (tens of µs of latency, and a system call on both sides). Which is cheaper depends on how soon the
// partner arrives, and that depends on the case and on whether the partner has a core of its own, so the spin budget
// adapts to what the waits observe, as an adaptive mutex does (docs/decisions/sph-threads.md, session 17).

/** A monotonic clock in µs. */
export type Clock = () => number;

/** `performance.now()` in µs (available on the main thread and in workers). */
export const performanceClock: Clock = () => performance.now() * 1000;

/** Bounds and start of the adaptive spin budget, µs. */
export interface SpinLimits {
  /** Smallest budget: a wait always spins this long first (a partner that is about to arrive costs no sleep). */
  min: number;
  /** Budget of a new waiter. */
  initial: number;
  /**
   * Largest budget, and the longest wait that counts as "the partner arrives quickly": a wait that slept longer was
   * not worth spinning through, whatever the budget (e.g. the partner was descheduled on an oversubscribed
   * machine, or the main thread did serial work). It bounds the core a waiter can burn per wait.
   */
  max: number;
}

/**
 * Default bounds, µs. A futex wake-up on Linux costs about 5–50 µs of latency; the 2D dam break at dp 0.025 on two
 * threads has phases of about 50 µs and the main thread's serial work between two acoustic steps is a few µs, between
 * two advection steps (the cell lists) some tens of µs: a budget up to 100 µs covers those on a machine with a core
 * per thread, and waits beyond it are left to sleep.
 */
export const SPIN_LIMITS: SpinLimits = { min: 1, initial: 20, max: 100 };

/** Spin iterations between two clock reads (a clock read costs about as much as tens of iterations). */
const CLOCK_EVERY = 64;

/** Longest single sleep, ms (the wait re-checks the slot after it: a lost notification costs at most this). */
const SLEEP_MS = 1000;

/**
 * One thread's way of waiting on slots of a shared Int32Array. Adaptive (default): spins up to `budget` µs, then
 * sleeps; after each wait that did not succeed at once, `record` adapts the budget. Fixed (`spins` given, for
 * measurement: `SPH_SPIN`): spins that many iterations, then sleeps, and never adapts. Either way only timing
 * changes, never what the threads compute.
 */
export class Waiter {
  /** Current spin budget, µs (adaptive waiters). */
  budget: number;
  /** Waits that slept / waits that succeeded while spinning / waits that needed none (statistics). */
  readonly counts = { slept: 0, spun: 0, immediate: 0 };
  private readonly spins: number | null;
  private readonly clock: Clock;
  private readonly limits: SpinLimits;

  constructor(spins: number | null = null, clock: Clock = performanceClock, limits: SpinLimits = SPIN_LIMITS) {
    this.spins = spins;
    this.clock = clock;
    this.limits = limits;
    this.budget = limits.initial;
  }

  /** True when the budget adapts (no fixed spin count). */
  get adaptive(): boolean {
    return this.spins === null;
  }

  /** Waits until `ctrl[slot]` equals `value`. */
  until(ctrl: Int32Array, slot: number, value: number): void {
    this.wait(ctrl, slot, value, true);
  }

  /** Waits until `ctrl[slot]` differs from `value`; returns the value it then read. */
  change(ctrl: Int32Array, slot: number, value: number): number {
    return this.wait(ctrl, slot, value, false);
  }

  /**
   * Adapts the budget after a wait of `waited` µs that `slept` (its spin ran out) or not:
   * - succeeded while spinning, late (after more than half the budget): doubled, so that a partner arriving a bit
   *   later next time is still caught;
   * - slept, but the partner came within `max`: doubled (a larger budget would have saved the wake-up);
   * - slept longer than `max`: halved (the partner was not arriving quickly; spinning only took a core);
   * - succeeded early: unchanged.
   * Always within [`min`, `max`].
   */
  record(waited: number, slept: boolean): void {
    const { min, max } = this.limits;
    const late = slept ? waited <= max : waited > this.budget / 2;
    if (late) this.budget = Math.min(max, 2 * this.budget);
    else if (slept) this.budget = Math.max(min, this.budget / 2);
  }

  /** Waits until `(ctrl[slot] === value) === equal`; returns the last value read. */
  private wait(ctrl: Int32Array, slot: number, value: number, equal: boolean): number {
    let now = Atomics.load(ctrl, slot);
    if ((now === value) === equal) {
      this.counts.immediate++;
      return now;
    }
    const spins = this.spins;
    const start = spins === null ? this.clock() : 0;
    const deadline = start + this.budget;
    for (let n = 1; ; n++) {
      now = Atomics.load(ctrl, slot);
      if ((now === value) === equal) {
        this.counts.spun++;
        if (spins === null) this.record(this.clock() - start, false);
        return now;
      }
      if (spins === null ? n % CLOCK_EVERY === 0 && this.clock() >= deadline : n > spins) break;
    }
    for (;;) {
      // Returns at once if the slot no longer holds `now` (it changed since the last read).
      Atomics.wait(ctrl, slot, now, SLEEP_MS);
      now = Atomics.load(ctrl, slot);
      if ((now === value) === equal) break;
    }
    this.counts.slept++;
    if (spins === null) this.record(this.clock() - start, true);
    return now;
  }
}

/** The fixed spin count `SPH_SPIN` sets (iterations, for measurement), else null: adaptive waits. */
export function spinFromEnvironment(): number | null {
  const forced = process.env.SPH_SPIN;
  return forced !== undefined && forced !== '' ? Number(forced) : null;
}
