import { describe, expect, it } from 'vitest';
import { oscillatingBeam } from './cases';
import { box, particlesFromShape } from './geometry';
import type { ElasticModel } from './material';
import { ElasticSolid } from './solid';
import type { GradientOrder } from './solidGradient';

/** Number of differing bytes over the live fields and tensors of two solids. */
function differingBytes(a: ElasticSolid, b: ElasticSolid): number {
  const n = a.particles.count;
  const fields = (s: ElasticSolid): [Float64Array, number][] => {
    const p = s.particles;
    const perParticle: Float64Array[] = [p.x, p.y, p.z, p.vx, p.vy, p.vz, p.ax, p.ay, p.az, p.rho];
    return [...perParticle.map((f): [Float64Array, number] => [f, n]), [s.F, 9 * n], [s.dF, 9 * n], [s.P, 9 * n]];
  };
  const fa = fields(a);
  const fb = fields(b);
  let diff = 0;
  fa.forEach(([f, len], k) => {
    const u = new Uint8Array(f.buffer, 0, len * 8);
    const v = new Uint8Array(fb[k]![0].buffer, 0, len * 8);
    for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) diff++;
  });
  return diff;
}

/** Runs `solid` for `steps` acoustic steps on `threads` threads and returns it. */
async function runOn(solid: ElasticSolid, threads: number, steps: number): Promise<ElasticSolid> {
  await solid.startThreads(threads);
  try {
    expect(solid.threads).toBe(Math.max(1, threads));
    for (let k = 0; k < steps; k++) solid.step(Infinity);
  } finally {
    await solid.stopThreads();
  }
  return solid;
}

/** The 2D cantilever (SPHinXsys clamp, first-mode initial velocity) at dp = H/5. */
function beam(model: ElasticModel, gradientOrder: GradientOrder): ElasticSolid {
  return oscillatingBeam({ dp: 0.004, model, gradientOrder }).solid;
}

/** A 3D bar 0.1 × 0.02 × 0.02 clamped at x < 0.01, sagging under gravity (the generic 3D passes). */
function bar3d(model: ElasticModel): ElasticSolid {
  const dp = 0.005;
  const particles = particlesFromShape(box([0, 0, 0], [0.1, 0.02, 0.02]), dp, 3, 1000);
  return new ElasticSolid(particles, {
    dim: 3,
    dp,
    material: { model, rho0: 1000, youngsModulus: 2e6, poissonRatio: 0.3 },
    gravity: [0, 0, -9.81],
    fixed: (x) => x < 0.01,
    damping: 5,
  });
}

describe('elastic solid on worker threads', () => {
  const cases: [ElasticModel, GradientOrder][] = [
    ['linear_elastic', 1],
    ['neo_hookean', 1],
    ['linear_elastic', 2],
    ['neo_hookean', 2],
  ];
  it.each(cases)(
    '2D %s, gradient order %i: 1, 2 and 3 threads byte-identical, and run to run',
    async (model, order) => {
      const steps = 150;
      const one = await runOn(beam(model, order), 1, steps);
      const twoA = await runOn(beam(model, order), 2, steps);
      const twoB = await runOn(beam(model, order), 2, steps);
      const three = await runOn(beam(model, order), 3, steps);
      expect(one.counters.steps).toBe(steps);
      expect(twoA.counters).toEqual(one.counters);
      // The beam moved and its clamp held.
      let moved = 0;
      for (let i = 0; i < one.particles.count; i++) {
        if (one.fixed[i]) expect(one.particles.vy[i]).toBe(0);
        else moved = Math.max(moved, Math.abs(one.particles.y[i]! - one.y0[i]!));
      }
      expect(moved).toBeGreaterThan(1e-5);
      expect(differingBytes(twoA, twoB)).toBe(0);
      expect(differingBytes(one, twoA)).toBe(0);
      expect(differingBytes(one, three)).toBe(0);
    },
    60_000,
  );

  it.each(['linear_elastic', 'neo_hookean'] as const)(
    '3D %s (generic passes, gravity, damping): 1, 2 and 3 threads byte-identical',
    async (model) => {
      const one = await runOn(bar3d(model), 1, 100);
      const two = await runOn(bar3d(model), 2, 100);
      const three = await runOn(bar3d(model), 3, 100);
      expect(differingBytes(one, two)).toBe(0);
      expect(differingBytes(one, three)).toBe(0);
    },
    60_000,
  );

  it('continues on the calling thread after stopThreads, and runs the same as without threads', async () => {
    const serial = beam('linear_elastic', 1);
    for (let k = 0; k < 60; k++) serial.step(Infinity);
    const mixed = beam('linear_elastic', 1);
    await mixed.startThreads(2);
    for (let k = 0; k < 30; k++) mixed.step(Infinity);
    await mixed.stopThreads();
    expect(mixed.threads).toBe(1);
    for (let k = 0; k < 30; k++) mixed.step(Infinity);
    expect(differingBytes(serial, mixed)).toBe(0);
  }, 60_000);
});
