import { describe, expect, it } from 'vitest';
import { ALL_THREADS_BELOW, RETRIAL_STEPS, ThreadTrial } from './poolTrial';

/** Runs `trial` through its current trial: each step takes `msPerStep(threads)` per acoustic step, 5 acoustic steps. */
function runTrial(trial: ThreadTrial, msPerStep: (threads: number) => number, work = 1000): number[] {
  const used: number[] = [];
  while (trial.trying) {
    used.push(trial.threads);
    trial.record((5 * msPerStep(trial.threads)) / 1000, 5, work);
  }
  return used;
}

describe('thread trial: one thread or all, by timing', () => {
  it('warms up on all threads, alternates 1 and all, keeps the faster (2 threads faster)', () => {
    const trial = new ThreadTrial(2);
    const used = runTrial(trial, (t) => (t === 2 ? 0.2 : 0.3));
    expect(used).toEqual([2, 2, 1, 1, 2, 2, 1, 1, 2]);
    expect(trial.decided).toBe(2);
    expect(trial.threads).toBe(2);
    expect(trial.trials).toBe(1);
  });

  it('keeps one thread when it is faster, on a pool of any size', () => {
    const trial = new ThreadTrial(3);
    const used = runTrial(trial, (t) => (t === 1 ? 0.3 : 0.35));
    expect(used).toEqual([3, 3, 1, 1, 3, 3, 1, 1, 3]);
    expect(trial.decided).toBe(1);
    expect(trial.threads).toBe(1);
  });

  it('keeps one thread unless all threads are faster by the margin (their extra CPU must pay)', () => {
    const close = new ThreadTrial(2);
    runTrial(close, (t) => (t === 2 ? (ALL_THREADS_BELOW + 0.01) * 0.3 : 0.3));
    expect(close.decided).toBe(1);
    const clear = new ThreadTrial(2);
    runTrial(clear, (t) => (t === 2 ? 0.9 * ALL_THREADS_BELOW * 0.3 : 0.3));
    expect(clear.decided).toBe(2);
  });

  it('judges by the median: one disturbed step does not decide', () => {
    const trial = new ThreadTrial(2);
    let step = 0;
    // All threads are faster, except one step hit by another program (20× slower).
    runTrial(trial, (t) => (t === 2 ? (++step === 3 ? 6 : 0.2) : 0.3));
    expect(trial.decided).toBe(2);
  });

  it('repeats a trial step that ran no acoustic step (end time reached) instead of counting it', () => {
    const trial = new ThreadTrial(2);
    trial.record(0.001, 5, 1000); // warm-up
    expect(trial.threads).toBe(2);
    trial.record(0.0001, 0, 1000);
    expect(trial.threads).toBe(2);
    trial.record(0.001, 5, 1000);
    expect(trial.threads).toBe(1);
  });

  it(`tries again after ${RETRIAL_STEPS} advection steps (the load may have changed), without a warm-up`, () => {
    const trial = new ThreadTrial(2);
    runTrial(trial, (t) => (t === 1 ? 0.2 : 0.3));
    expect(trial.decided).toBe(1);
    for (let k = 0; k < RETRIAL_STEPS - 1; k++) trial.record(0.001, 5, 1000);
    expect(trial.trying).toBe(false);
    trial.record(0.001, 5, 1000);
    expect(trial.trying).toBe(true);
    // The machine got quieter: now two threads win.
    expect(runTrial(trial, (t) => (t === 2 ? 0.1 : 0.2))).toEqual([2, 1, 1, 2, 2, 1, 1, 2]);
    expect(trial.decided).toBe(2);
    expect(trial.trials).toBe(2);
  });

  it('tries again when the work per pass has changed by more than half', () => {
    const trial = new ThreadTrial(2);
    runTrial(trial, (t) => (t === 1 ? 0.2 : 0.3), 1000);
    trial.record(0.001, 5, 1400);
    expect(trial.trying).toBe(false);
    trial.record(0.001, 5, 1600);
    expect(trial.trying).toBe(true);
    runTrial(trial, (t) => (t === 1 ? 0.2 : 0.3), 1600);
    trial.record(0.001, 5, 1000);
    expect(trial.trying).toBe(true);
  });
});
