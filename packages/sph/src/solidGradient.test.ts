import { describe, expect, it } from 'vitest';
import { box, particlesFromShape, union } from './geometry';
import { ElasticSolid } from './solid';

/** A plate with a step (outer and inner corners), 2D, dp = 0.01. */
function steppedPlate(order: 1 | 2): ElasticSolid {
  const dp = 0.01;
  const shape = union(box([0, 0, 0], [0.2, 0.05, 0]), box([0, 0.05, 0], [0.08, 0.09, 0]));
  const particles = particlesFromShape(shape, dp, 2, 1000);
  return new ElasticSolid(particles, {
    dim: 2,
    dp,
    material: { model: 'linear_elastic', rho0: 1000, youngsModulus: 1e6, poissonRatio: 0.3 },
    gradientOrder: order,
  });
}

/** Largest error of the velocity gradient Ḟ of the field v(x, y) against its exact gradient, over all particles. */
function gradientError(
  solid: ElasticSolid,
  v: (x: number, y: number) => [number, number],
  grad: (x: number, y: number) => [number, number, number, number],
  skip: (i: number) => boolean = () => false,
): number {
  const p = solid.particles;
  for (let i = 0; i < p.count; i++) [p.vx[i], p.vy[i]] = v(p.x[i]!, p.y[i]!);
  solid.advance(0); // computes Ḟ from the velocities without moving anything
  let worst = 0;
  for (let i = 0; i < p.count; i++) {
    if (skip(i)) continue;
    const g = grad(p.x[i]!, p.y[i]!);
    const d = [solid.dF[9 * i]!, solid.dF[9 * i + 1]!, solid.dF[9 * i + 3]!, solid.dF[9 * i + 4]!];
    for (let k = 0; k < 4; k++) worst = Math.max(worst, Math.abs(d[k]! - g[k]!));
  }
  return worst;
}

describe('solid gradient operators', () => {
  const linear = (x: number, y: number): [number, number] => [0.3 * x - 0.2 * y, 0.1 * x + 0.5 * y];
  const linearGrad = (): [number, number, number, number] => [0.3, -0.2, 0.1, 0.5];
  const quadratic = (x: number, y: number): [number, number] => [x * y + 0.5 * x * x, y * y - 2 * x * y];
  const quadraticGrad = (x: number, y: number): [number, number, number, number] => [y + x, x, -2 * y, 2 * y - 2 * x];

  it('order 1 is exact for linear fields everywhere; order 2 also for quadratic fields (not on corner fallbacks)', () => {
    const first = steppedPlate(1);
    expect(gradientError(first, linear, linearGrad)).toBeLessThan(1e-12);
    // First order is not exact for a quadratic field at the surface (one-sided neighbourhoods).
    expect(gradientError(steppedPlate(1), quadratic, quadraticGrad)).toBeGreaterThan(1e-3);
    const second = steppedPlate(2);
    expect(second.stencilFactor).toBeGreaterThan(1.5);
    expect(second.stencilFactor).toBeLessThan(3);
    expect(gradientError(second, linear, linearGrad)).toBeLessThan(1e-12);
    // Corner particles (fewer than 10 neighbours) keep the first-order weights.
    const { start, end } = second.inner;
    const corner = (i: number): boolean => end[i]! - start[i]! < 10;
    expect(gradientError(steppedPlate(2), quadratic, quadraticGrad, corner)).toBeLessThan(1e-9);
  });

  it('conserves momentum with second-order weights (the stress forces are an energy gradient)', () => {
    const solid = steppedPlate(2);
    const p = solid.particles;
    // A random velocity field; after some steps of free motion the total momentum is unchanged.
    let seed = 7;
    const rand = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.01;
    for (let i = 0; i < p.count; i++) [p.vx[i], p.vy[i]] = [rand(), rand()];
    const momentum = (): [number, number] => {
      let [mx, my] = [0, 0];
      for (let i = 0; i < p.count; i++) [mx, my] = [mx + p.mass[i]! * p.vx[i]!, my + p.mass[i]! * p.vy[i]!];
      return [mx, my];
    };
    const before = momentum();
    for (let k = 0; k < 50; k++) solid.advance(solid.timeStep());
    const after = momentum();
    const scale = p.count * p.mass[0]! * 0.01;
    expect(Math.abs(after[0] - before[0]) / scale).toBeLessThan(1e-12);
    expect(Math.abs(after[1] - before[1]) / scale).toBeLessThan(1e-12);
  });
});
