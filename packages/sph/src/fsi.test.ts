import { describe, expect, it } from 'vitest';
import { FluidStructureInteraction } from './fsi';
import { box, boxContainerWall, particlesFromShape } from './geometry';
import { ParticleArrays } from './particles';
import { ElasticSolid } from './solid';

/**
 * A water layer W wide and D = 0.5 deep (ρ = g = 1, dp = 0.05) whose floor is an elastic plate 4 dp thick reaching
 * under the side walls; `fixed(x, W)` says which plate particles are clamped; `damping` is the plate's mass damping.
 */
function plateUnderWater(fixed: (x: number, width: number) => boolean, youngsModulus: number, damping: number, W = 1) {
  const [D, dp, rho] = [0.5, 0.05, 1];
  const t = 4 * dp;
  const container = boxContainerWall([0, 0, 0], [W, 1, 0], t, dp, 2, rho);
  // Side walls only: the plate is the floor.
  const walls = new ParticleArrays(2, container.count);
  for (let i = 0; i < container.count; i++) {
    if (container.y[i]! < 0) continue;
    const k = walls.add(container.x[i]!, container.y[i]!, 0, container.vol[i]!, rho);
    walls.nx[k] = container.nx[i]!;
    walls.ny[k] = container.ny[i]!;
  }
  const plateParticles = particlesFromShape(box([-t, -t, 0], [W + t, 0, 0]), dp, 2, rho);
  const plate = new ElasticSolid(plateParticles, {
    dim: 2,
    dp,
    material: { model: 'linear_elastic', rho0: rho, youngsModulus, poissonRatio: 0.3 },
    fixed: (x) => fixed(x, W),
    damping,
  });
  const water = particlesFromShape(box([0, 0, 0], [W, D, 0]), dp, 2, rho);
  const sim = new FluidStructureInteraction(water, walls, [plate], {
    dim: 2,
    dp,
    rho0: rho,
    c0: 10,
    mu: 0.02,
    gravity: [0, -1, 0],
    uRef: Math.sqrt(D),
    freeSurface: true,
    domain: { lower: [-t, -t, 0], upper: [W + t, 1 + t, 0], periodic: [false, false, false] },
  });
  const weight = water.count * water.mass[0]!;
  return { sim, plate, weight, W, D, t, dp };
}

/** Mean fluid force on solid 0 over the advection steps from `from` to `end` (s). */
function meanForce(sim: FluidStructureInteraction, from: number, end: number): [number, number] {
  sim.run(from);
  let [fx, fy, n] = [0, 0, 0];
  sim.run(end, () => {
    const f = sim.fluidForce(0);
    fx += f[0];
    fy += f[1];
    n++;
  });
  return [fx / n, fy / n];
}

describe('fluid–structure interaction', () => {
  it('a clamped plate under a water layer carries the weight of the water (hydrostatic force balance)', () => {
    const { sim, weight } = plateUnderWater(() => true, 100, 0);
    const [fx, fy] = meanForce(sim, 2.5, 3);
    // The floor carries ρ g D W = 0.5 (the side walls only push sideways); the pressure acts downwards.
    expect(Math.abs(-fy / weight - 1)).toBeLessThan(0.02);
    expect(Math.abs(fx / weight)).toBeLessThan(0.01);
    expect(sim.counters.solidSteps).toBeGreaterThanOrEqual(sim.counters.acousticSteps);
    // The water has settled: no particle faster than 2 % of √(gD).
    const { vx, vy, count } = sim.fluid.fluid;
    let vmax = 0;
    for (let i = 0; i < count; i++) vmax = Math.max(vmax, Math.hypot(vx[i]!, vy[i]!));
    expect(vmax).toBeLessThan(0.02 * Math.sqrt(0.5));
  }, 60_000);

  it('a flexible plate clamped at both ends sags as under the hydrostatic pressure, stays stable and balances the load', () => {
    const E = 2000;
    const { sim, plate, weight, W, D, dp } = plateUnderWater((x, w) => x < 0 || x > w, E, 5, 2);
    const [, fy] = meanForce(sim, 4, 4.5);
    expect(Math.abs(-fy / weight - 1)).toBeLessThan(0.03);
    const midSag = (solid: ElasticSolid): number => {
      let [sum, n] = [0, 0];
      for (let i = 0; i < solid.particles.count; i++) {
        if (Math.abs(solid.x0[i]! - W / 2) < dp) {
          sum += solid.particles.y[i]! - solid.y0[i]!;
          n++;
        }
      }
      return -sum / n;
    };
    // Reference: the same plate, dry, under the pressure ρ g D as a traction on its wetted top row.
    const dry = plateUnderWater((x, w) => x < 0 || x > w, E, 5, 2).plate;
    const p = dry.particles;
    for (let i = 0; i < p.count; i++) {
      if (dry.y0[i]! > -dp && dry.x0[i]! > 0 && dry.x0[i]! < W) p.apy[i] = (-D * dp) / p.mass[i]!;
    }
    dry.run(4.5);
    const sag = midSag(plate);
    expect(sag).toBeGreaterThan(0);
    expect(Math.abs(sag / midSag(dry) - 1)).toBeLessThan(0.05);
    // Stable: the plate is at rest and no fluid particle crossed it.
    expect(plate.kineticEnergy()).toBeLessThan(1e-5 * weight * D);
    const { y, count } = sim.fluid.fluid;
    for (let i = 0; i < count; i++) expect(y[i]).toBeGreaterThan(-sag - dp / 4);
  }, 60_000);
});
