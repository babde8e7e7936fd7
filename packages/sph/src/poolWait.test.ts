import { describe, expect, it } from 'vitest';
import { Waiter, type SpinLimits } from './poolWait';

const LIMITS: SpinLimits = { min: 1, initial: 20, max: 100 };

/**
 * A fake clock for a waiter on slot 0 of `ctrl`: each read returns the next of `times` (µs; the last one repeats), and
 * the read at index `arrival` plays the partner arriving: it sets the slot to 1 first.
 */
function fakeClock(ctrl: Int32Array, times: number[], arrival: number): () => number {
  let k = 0;
  return () => {
    if (k === arrival) Atomics.store(ctrl, 0, 1);
    const t = times[Math.min(k, times.length - 1)]!;
    k++;
    return t;
  };
}

describe('adaptive spin-then-sleep waits', () => {
  it('doubles the budget when a spin succeeds late or a short wait had to sleep, halves it after long sleeps', () => {
    const w = new Waiter(null, () => 0, LIMITS);
    expect(w.budget).toBe(20);
    w.record(5, false); // early success: enough budget
    expect(w.budget).toBe(20);
    w.record(15, false); // late success (over half the budget)
    expect(w.budget).toBe(40);
    w.record(90, true); // slept, but the partner came within the cap: spinning would have paid
    expect(w.budget).toBe(80);
    w.record(60, true);
    expect(w.budget).toBe(100); // capped
    w.record(99, false);
    expect(w.budget).toBe(100);
    w.record(5000, true); // slept long: the partner was not coming soon
    expect(w.budget).toBe(50);
    for (let k = 0; k < 20; k++) w.record(5000, true);
    expect(w.budget).toBe(1); // floor
  });

  it('an oversubscribed pattern (most waits sleep long) keeps the budget low, a quick partner keeps it high', () => {
    const slow = new Waiter(null, () => 0, LIMITS);
    // Three long sleeps for every short one, as when the partner is descheduled most of the time.
    for (let k = 0; k < 100; k++) slow.record(k % 4 === 0 ? 10 : 2000, true);
    expect(slow.budget).toBeLessThanOrEqual(10);
    const quick = new Waiter(null, () => 0, LIMITS);
    for (let k = 0; k < 100; k++) quick.record(30 + (k % 3) * 10, quick.budget < 30 + (k % 3) * 10);
    expect(quick.budget).toBeGreaterThanOrEqual(80);
  });

  it('returns at once without touching the budget when the slot already holds the value', () => {
    const ctrl = new Int32Array(new SharedArrayBuffer(4));
    const w = new Waiter(
      null,
      () => {
        throw new Error('no clock read expected');
      },
      LIMITS,
    );
    w.until(ctrl, 0, 0);
    expect(w.counts).toEqual({ slept: 0, spun: 0, immediate: 1 });
    expect(w.budget).toBe(20);
  });

  it('spins until the partner arrives within the budget, and learns from a late arrival', () => {
    const ctrl = new Int32Array(new SharedArrayBuffer(4));
    // Start at 10 µs (deadline 30); the partner arrives at the clock read returning 20, the success is read at 30.
    const w = new Waiter(null, fakeClock(ctrl, [10, 20, 30], 1), LIMITS);
    w.until(ctrl, 0, 1);
    expect(w.counts).toEqual({ slept: 0, spun: 1, immediate: 0 });
    // Waited 20 µs of a 20 µs budget: late, doubled.
    expect(w.budget).toBe(40);
  });

  it('sleeps once the budget has passed, and grows it when the partner came soon after', () => {
    const ctrl = new Int32Array(new SharedArrayBuffer(4));
    // Deadline 30: the read at 30 ends the spin (the partner arrives just then), the sleep ends at 70 (60 µs waited).
    const w = new Waiter(null, fakeClock(ctrl, [10, 20, 30, 70], 2), LIMITS);
    expect(w.change(ctrl, 0, 0)).toBe(1);
    expect(w.counts).toEqual({ slept: 1, spun: 0, immediate: 0 });
    expect(w.budget).toBe(40);
  });

  it('halves the budget after a sleep longer than the cap', () => {
    const ctrl = new Int32Array(new SharedArrayBuffer(4));
    const w = new Waiter(null, fakeClock(ctrl, [10, 20, 30, 5010], 2), LIMITS);
    w.until(ctrl, 0, 1);
    expect(w.counts.slept).toBe(1);
    expect(w.budget).toBe(10);
  });

  it('a fixed spin count (SPH_SPIN) never reads the clock nor adapts', () => {
    const ctrl = new Int32Array(new SharedArrayBuffer(4));
    const w = new Waiter(
      100,
      () => {
        throw new Error('no clock read expected');
      },
      LIMITS,
    );
    expect(w.adaptive).toBe(false);
    Atomics.store(ctrl, 0, 7);
    expect(w.change(ctrl, 0, 0)).toBe(7);
    expect(w.budget).toBe(20);
  });
});
