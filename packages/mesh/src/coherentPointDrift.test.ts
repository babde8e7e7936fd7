import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { coherentPointDrift, CpdInputError, CPD_MAX_MOVING_POINTS } from './coherentPointDrift';
import { farthestPointSampling } from './farthestPointSample';

interface ReferenceCase {
  name: string;
  beta: number;
  lambda: number;
  w: number;
  maxIterations: number;
  tolerance: number;
  moving: number[];
  fixed: number[];
  positions: number[];
  iterations: number;
}
const reference = JSON.parse(readFileSync(new URL('../test/fixtures/cpd-reference.json', import.meta.url), 'utf8')) as {
  cases: ReferenceCase[];
};

/** Points on a sphere of radius r by the golden-angle spiral (n points, evenly spread). */
function spiralSphere(n: number, r: number, offset = 0): Float64Array {
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const z = 1 - (2 * (i + 0.5)) / n;
    const rho = Math.sqrt(1 - z * z);
    const phi = (i + offset) * Math.PI * (3 - Math.sqrt(5));
    out.set([r * rho * Math.cos(phi), r * rho * Math.sin(phi), r * z], i * 3);
  }
  return out;
}

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
};

// Generous timeouts: a few seconds of arithmetic each, slower on a loaded CI machine.
describe('coherentPointDrift', { timeout: 60_000 }, () => {
  it('leaves a set registered onto itself where it is', () => {
    const points = spiralSphere(200, 25);
    const fit = coherentPointDrift(points, points);
    expect(fit.converged).toBe(true);
    expect(maxDiff(fit.positions, points)).toBeLessThan(1e-3 * 25);
  });

  it('recovers a shift and a change of size exactly as the normalisation does (same points, other order)', () => {
    const points = spiralSphere(150, 10);
    const moved = new Float64Array(points.length);
    // The fixed set: the same points scaled by 2.5, shifted, listed in reverse order.
    const n = points.length / 3;
    for (let i = 0; i < n; i++)
      for (let a = 0; a < 3; a++) moved[(n - 1 - i) * 3 + a] = 2.5 * points[i * 3 + a]! + [40, -7, 3][a]!;
    const fit = coherentPointDrift(points, moved);
    const expected = new Float64Array(points.length);
    for (let i = 0; i < points.length; i++) expected[i] = 2.5 * points[i]! + [40, -7, 3][i % 3]!;
    expect(maxDiff(fit.positions, expected)).toBeLessThan(1e-3 * 25);
  });

  // numpy reference (tools/cpd-reference/cpd_reference.py): the paper's algorithm with a dense kernel and LAPACK's
  // solve. At full rank the low-rank/Woodbury M-step is the same linear algebra: agreement to 1e-8 mm (measured
  // 5e-12) on a 60 mm shape. Below full rank it is an approximation, judged by the correspondence it recovers
  // (packages/ssm/src/registration.test.ts).
  it.each(reference.cases.map((c) => [c.name, c] as const))('agrees with numpy at full rank: %s', (_, c) => {
    const M = c.moving.length / 3;
    const fit = coherentPointDrift(c.moving, c.fixed, {
      beta: c.beta,
      lambda: c.lambda,
      w: c.w,
      maxIterations: c.maxIterations,
      tolerance: c.tolerance,
      rank: M,
    });
    expect(fit.iterations).toBe(c.iterations);
    expect(maxDiff(fit.positions, c.positions)).toBeLessThan(1e-8);
  });

  it('refuses what it cannot register, in words', () => {
    const points = spiralSphere(10, 1);
    expect(() => coherentPointDrift(points.subarray(0, 9), points)).toThrow(CpdInputError);
    expect(() => coherentPointDrift(new Float64Array(30).fill(1), points)).toThrow('The points all lie at one place.');
    const bad = Float64Array.from(points);
    bad[4] = Number.NaN;
    expect(() => coherentPointDrift(points, bad)).toThrow('A fixed point is not a finite number.');
    expect(() => coherentPointDrift(new Float64Array((CPD_MAX_MOVING_POINTS + 1) * 3), points)).toThrow(
      /decimate the mesh first/,
    );
    expect(() => coherentPointDrift(points, points, { w: 1 })).toThrow(/0 ≤ w < 1/);
    expect(() => coherentPointDrift(points, points, { coarse: 3 })).toThrow(/at least four coarse points/);
    expect(() => coherentPointDrift(points, points, { motionTolerance: -1 })).toThrow(/motion tolerance ≥ 0/);
  });

  it('ends on all fixed points when it fits a coarse subset first: the exact answer, as with all points throughout', () => {
    // The normalisation makes the answer exact (the case above); coarse-to-fine data, the non-rigid stage continuing
    // the affine stage's σ² and the motion stop must still end there: the last E-steps use every fixed point.
    const points = spiralSphere(150, 10);
    const n = points.length / 3;
    const moved = new Float64Array(points.length);
    for (let i = 0; i < n; i++)
      for (let a = 0; a < 3; a++) moved[(n - 1 - i) * 3 + a] = 2.5 * points[i * 3 + a]! + [40, -7, 3][a]!;
    const expected = points.map((v, i) => 2.5 * v + [40, -7, 3][i % 3]!);
    const options = { affine: true, continueVariance: true, motionTolerance: 1e-4, tolerance: 1e-8 };
    const coarse = coherentPointDrift(points, moved, { ...options, coarse: 40 });
    expect(coarse.affineIterations).toBeGreaterThan(0);
    expect(maxDiff(coarse.positions, expected)).toBeLessThan(1e-3 * 25);
    // A subset as large as the data is no subset: the same fit as without one.
    const all = coherentPointDrift(points, moved, options);
    expect(maxDiff(coherentPointDrift(points, moved, { ...options, coarse: n }).positions, all.positions)).toBe(0);
  });
});

describe('farthestPointSampling', () => {
  it('picks points at least the covering radius apart, with every point within it of a pick', () => {
    const points = spiralSphere(500, 10);
    const { indices, coverRadius } = farthestPointSampling(points, 60);
    expect(new Set(indices).size).toBe(60);
    const distance = (a: number, b: number): number =>
      Math.hypot(
        points[a * 3]! - points[b * 3]!,
        points[a * 3 + 1]! - points[b * 3 + 1]!,
        points[a * 3 + 2]! - points[b * 3 + 2]!,
      );
    for (let p = 0; p < 500; p++) {
      const nearest = Math.min(...Array.from(indices, (i) => distance(p, i)));
      expect(nearest).toBeLessThanOrEqual(coverRadius + 1e-12);
    }
    for (const a of indices)
      for (const b of indices) if (a !== b) expect(distance(a, b)).toBeGreaterThanOrEqual(coverRadius - 1e-12);
    expect(farthestPointSampling(points, 500).coverRadius).toBe(0);
  });
});
