import { describe, expect, it } from 'vitest';
import { collapsingColumn3d, damBreak, poiseuilleChannel } from './cases';
import { readCheckpoint, writeCheckpoint } from './checkpoint';
import { WeaklyCompressibleFluid } from './fluid';
import { box, particlesFromShape } from './geometry';
import { ParticleArrays } from './particles';
import { MIN_WORK_PER_THREAD, threadsForWork } from './pool';

/** Fields compared byte for byte. */
const FIELDS = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'rho', 'drho', 'p', 'vol'] as const;

/** Number of differing bytes over the live fluid fields of two simulations. */
function differingBytes(a: WeaklyCompressibleFluid, b: WeaklyCompressibleFluid): number {
  let diff = 0;
  const n = a.fluid.count;
  for (const f of FIELDS) {
    const u = new Uint8Array(a.fluid[f].buffer, 0, n * 8);
    const v = new Uint8Array(b.fluid[f].buffer, 0, n * 8);
    for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) diff++;
  }
  return diff;
}

/** Runs `sim` to `end` s on `threads` threads (every one of them, whatever the work) and returns it. */
async function runOn(sim: WeaklyCompressibleFluid, threads: number, end: number): Promise<WeaklyCompressibleFluid> {
  sim.minWorkPerThread = 0;
  await sim.startThreads(threads);
  try {
    sim.run(end);
  } finally {
    await sim.stopThreads();
  }
  return sim;
}

describe('worker-thread pool', () => {
  it('2 threads: byte-identical run to run and to 1 thread (2D dam break, dp 0.05, t = 0.4)', async () => {
    const one = await runOn(damBreak({ dp: 0.05 }), 1, 0.4);
    const twoA = await runOn(damBreak({ dp: 0.05 }), 2, 0.4);
    const twoB = await runOn(damBreak({ dp: 0.05 }), 2, 0.4);
    expect(twoA.counters).toEqual(one.counters);
    expect(differingBytes(twoA, twoB)).toBe(0);
    expect(differingBytes(one, twoA)).toBe(0);
    // Three threads split differently and still agree.
    const three = await runOn(damBreak({ dp: 0.05 }), 3, 0.4);
    expect(differingBytes(one, three)).toBe(0);
  }, 60_000);

  it('the fused one-pass pressure relaxation gives the same bytes as the two-pass one (2D dam break and 3D)', async () => {
    const fused = damBreak({ dp: 0.05 });
    fused.fusedPressure = true;
    const one = await runOn(damBreak({ dp: 0.05 }), 1, 0.3);
    expect(differingBytes(one, await runOn(fused, 2, 0.3))).toBe(0);
    const fused3d = collapsingColumn3d();
    fused3d.fusedPressure = true;
    expect(differingBytes(await runOn(collapsingColumn3d(), 1, 0.1), await runOn(fused3d, 1, 0.1))).toBe(0);
  }, 60_000);

  it('2 threads: identical to 1 thread with viscosity, transport correction and periodic x (Poiseuille, t = 0.3)', async () => {
    const options = { height: 1, length: 6, dp: 0.05, mu: 0.1, rho0: 1, meanVelocity: 1 };
    const one = await runOn(poiseuilleChannel(options), 1, 0.3);
    const two = await runOn(poiseuilleChannel(options), 2, 0.3);
    expect(one.counters.advectionSteps).toBeGreaterThan(5);
    expect(differingBytes(one, two)).toBe(0);
  }, 60_000);

  it('2 threads: identical to 1 thread on the generic (3D) passes', async () => {
    const one = await runOn(collapsingColumn3d(), 1, 0.2);
    const two = await runOn(collapsingColumn3d(), 2, 0.2);
    expect(differingBytes(one, two)).toBe(0);
  }, 60_000);

  it('chooses its threads from the work per pass: one more per MIN_WORK_PER_THREAD units, at least one', () => {
    expect(threadsForWork(MIN_WORK_PER_THREAD / 2, 2, MIN_WORK_PER_THREAD)).toBe(1);
    expect(threadsForWork(1.9 * MIN_WORK_PER_THREAD, 2, MIN_WORK_PER_THREAD)).toBe(1);
    expect(threadsForWork(2 * MIN_WORK_PER_THREAD, 2, MIN_WORK_PER_THREAD)).toBe(2);
    expect(threadsForWork(2.5 * MIN_WORK_PER_THREAD, 3, MIN_WORK_PER_THREAD)).toBe(2);
    expect(threadsForWork(100 * MIN_WORK_PER_THREAD, 3, MIN_WORK_PER_THREAD)).toBe(3);
    expect(threadsForWork(10, 4, 0)).toBe(4);
  });

  it('runs a small case on fewer threads than given, switching between advection steps, bit-identical to 1 thread', async () => {
    const reference = damBreak({ dp: 0.05 });
    const sim = damBreak({ dp: 0.05 });
    reference.advectionStep();
    sim.advectionStep();
    // About 16,000 units at dp 0.05 (800 particles): under half the default, far from the thresholds set below.
    const work = sim.workPerPass;
    expect(work).toBeLessThan(MIN_WORK_PER_THREAD / 2);
    // Threads allowed 3: one (the default threshold), two of three (work / threshold = 2.5), all three, one again.
    const thresholds = [MIN_WORK_PER_THREAD, Math.round(work / 2.5), 0, MIN_WORK_PER_THREAD];
    const active: number[] = [];
    await sim.startThreads(3);
    try {
      expect(sim.threads).toBe(3);
      for (const [k, threshold] of thresholds.entries()) {
        sim.minWorkPerThread = threshold;
        for (const s of [reference, sim]) {
          // The new threshold takes effect at this step's rebuild.
          s.advectionStep();
          s.run(0.1 * (k + 1));
        }
        active.push(sim.activeThreads);
      }
    } finally {
      await sim.stopThreads();
    }
    expect(active).toEqual([1, 2, 3, 1]);
    expect(reference.counters.advectionSteps).toBeGreaterThan(10);
    expect(sim.counters).toEqual(reference.counters);
    expect(differingBytes(reference, sim)).toBe(0);
  }, 60_000);

  it('the timed thread rule and any spin policy give the bytes of 1 thread (2D dam break, dp 0.05, t = 0.4)', async () => {
    const one = await runOn(damBreak({ dp: 0.05 }), 1, 0.4);
    // Adaptive waits (default), never spinning, and spinning long: only timing differs.
    for (const spin of [undefined, 0, 50_000]) {
      const sim = damBreak({ dp: 0.05 });
      sim.minWorkPerThread = null;
      await sim.startThreads(2, spin);
      try {
        sim.run(0.4);
        // The trial's warm-up and alternating steps ran on both counts, switching between advection steps.
        const [, onOne = 0, onTwo = 0] = sim.acousticStepsOnThreads;
        expect(onOne).toBeGreaterThan(0);
        expect(onTwo).toBeGreaterThan(0);
        expect(onOne + onTwo).toBe(sim.counters.acousticSteps);
      } finally {
        await sim.stopThreads();
      }
      expect(sim.counters).toEqual(one.counters);
      expect(differingBytes(one, sim)).toBe(0);
    }
  }, 120_000);

  it('re-attaches the workers to neighbour lists that grew', async () => {
    const one = damBreak({ dp: 0.05 });
    const two = damBreak({ dp: 0.05 });
    one.run(0.1);
    two.minWorkPerThread = 0;
    await two.startThreads(2);
    try {
      two.run(0.1);
      two.inner.grow();
      two.contact.grow();
      two.run(0.2);
    } finally {
      await two.stopThreads();
    }
    one.run(0.2);
    expect(differingBytes(one, two)).toBe(0);
  }, 60_000);

  it('falls back to a serial build with larger lists when a thread region overflows', async () => {
    // Particles at half the spacing the simulation assumes: about 4× the pairs the lists were sized for.
    const make = (): WeaklyCompressibleFluid => {
      const fluid = particlesFromShape(box([0, 0, 0], [1, 1, 0]), 0.05, 2, 1);
      for (let i = 0; i < fluid.count; i++) fluid.vx[i] = 0.1 * Math.sin(7 * i);
      return new WeaklyCompressibleFluid(fluid, new ParticleArrays(2, 0), {
        dim: 2,
        dp: 0.1,
        rho0: 1,
        c0: 20,
        mu: 0.01,
        gravity: [0, 0, 0],
        uRef: 2,
        freeSurface: false,
        domain: { lower: [0, 0, 0], upper: [1, 1, 0], periodic: [true, true, false] },
      });
    };
    const one = make();
    const two = make();
    const capacity = two.inner.capacity;
    two.minWorkPerThread = 0;
    await two.startThreads(2);
    try {
      for (let s = 0; s < 3; s++) {
        one.advectionStep();
        two.advectionStep();
      }
    } finally {
      await two.stopThreads();
    }
    expect(two.inner.capacity).toBeGreaterThan(capacity);
    expect(differingBytes(one, two)).toBe(0);
  }, 60_000);

  it('one thread overflowing while the other already summed densities still matches 1 thread (free surface)', async () => {
    // Thread 0 gets a sparse block (about 15 pairs per particle), thread 1 a block at half the spacing (about 50):
    // only thread 1's pair region overflows, after thread 0 has summed its densities from the previous ones.
    const make = (): WeaklyCompressibleFluid => {
      const sparse = particlesFromShape(box([0, 0, 0], [1, 1, 0]), 0.1, 2, 1);
      const dense = particlesFromShape(box([2, 0, 0], [2.5, 0.5, 0]), 0.05, 2, 1);
      const fluid = new ParticleArrays(2, sparse.count + dense.count);
      for (const body of [sparse, dense]) {
        for (let i = 0; i < body.count; i++) fluid.add(body.x[i]!, body.y[i]!, 0, body.vol[i]!, 1);
      }
      for (let i = 0; i < fluid.count; i++) {
        fluid.rho[i] = 1 + 0.05 * Math.sin(3 * i);
        fluid.vx[i] = 0.1 * Math.sin(7 * i);
      }
      return new WeaklyCompressibleFluid(fluid, new ParticleArrays(2, 0), {
        dim: 2,
        dp: 0.1,
        rho0: 1,
        c0: 20,
        mu: 0,
        gravity: [0, 0, 0],
        uRef: 2,
        freeSurface: true,
        domain: { lower: [-0.5, -0.5, 0], upper: [3, 1.5, 0], periodic: [false, false, false] },
      });
    };
    const one = make();
    const two = make();
    const capacity = two.inner.capacity;
    two.minWorkPerThread = 0;
    await two.startThreads(2);
    try {
      one.advectionStep();
      two.advectionStep();
    } finally {
      await two.stopThreads();
    }
    expect(two.inner.capacity).toBeGreaterThan(capacity);
    expect(differingBytes(one, two)).toBe(0);
  }, 60_000);

  it('reports monotone progress ending at exactly 1', async () => {
    const sim = damBreak({ dp: 0.05 });
    sim.minWorkPerThread = 0;
    await sim.startThreads(2);
    const fractions: number[] = [];
    try {
      const status = await sim.runAsync(0.3, { onProgress: (f) => fractions.push(f) });
      expect(status).toBe('completed');
    } finally {
      await sim.stopThreads();
    }
    expect(fractions.length).toBe(sim.counters.advectionSteps);
    for (let k = 1; k < fractions.length; k++) expect(fractions[k]).toBeGreaterThan(fractions[k - 1]!);
    expect(fractions[0]).toBeGreaterThan(0);
    expect(fractions[fractions.length - 1]).toBe(1);
    expect(sim.counters.time).toBeCloseTo(0.3, 12);
  }, 60_000);

  it('cancels a run promptly', async () => {
    const sim = damBreak({ dp: 0.05 });
    sim.minWorkPerThread = 0;
    await sim.startThreads(2);
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 300);
    try {
      const status = await sim.runAsync(20, { signal: controller.signal });
      const latency = performance.now() - abortedAt;
      expect(status).toBe('cancelled');
      expect(latency).toBeLessThan(500);
    } finally {
      await sim.stopThreads();
    }
    expect(sim.counters.time).toBeGreaterThan(0);
    expect(sim.counters.time).toBeLessThan(20);
  }, 60_000);

  it('restarts from a checkpoint bit-identically (also on another thread count)', async () => {
    const reference = damBreak({ dp: 0.05 });
    reference.run(0.2);
    const bytes = writeCheckpoint(reference);
    reference.run(0.4);
    const restarted = damBreak({ dp: 0.05 });
    readCheckpoint(restarted, bytes);
    expect(restarted.counters.time).toBeCloseTo(0.2, 12);
    await runOn(restarted, 2, 0.4);
    expect(restarted.counters).toEqual(reference.counters);
    expect(differingBytes(reference, restarted)).toBe(0);
    expect(() => readCheckpoint(damBreak({ dp: 0.1 }), bytes)).toThrow(/does not fit/);
  }, 60_000);
});
