import { describe, expect, it } from 'vitest';
import { FluidStructureInteraction } from './fsi';
import { box, boxContainerWall, particlesFromShape } from './geometry';
import { ParticleArrays } from './particles';
import { ElasticSolid } from './solid';

/** The walls of a box container 4 dp thick around [0, upper] without its floor (y < 0): a plate is the floor. */
function sideWalls(dim: 2 | 3, upper: [number, number, number], dp: number, rho: number): ParticleArrays {
  const container = boxContainerWall([0, 0, 0], upper, 4 * dp, dp, dim, rho);
  const walls = new ParticleArrays(dim, container.count);
  for (let i = 0; i < container.count; i++) {
    if (container.y[i]! < 0) continue;
    const k = walls.add(container.x[i]!, container.y[i]!, container.z[i]!, container.vol[i]!, rho);
    walls.nx[k] = container.nx[i]!;
    walls.ny[k] = container.ny[i]!;
    walls.nz[k] = container.nz[i]!;
  }
  return walls;
}

/**
 * A water layer W wide and D = 0.5 deep (ρ = g = 1; 2D dp = 0.05, 3D dp = 0.1 and 0.5 deep in z) whose floor is an
 * elastic plate 4 dp thick reaching under the side walls; `fixed(x, W)` says which plate particles are clamped;
 * `damping` is the plate's mass damping.
 */
function plateUnderWater(o: {
  dim?: 2 | 3;
  fixed: (x: number, width: number) => boolean;
  youngsModulus: number;
  damping?: number;
  W?: number;
}) {
  const dim = o.dim ?? 2;
  const [W, D, rho] = [o.W ?? 1, 0.5, 1];
  const dp = dim === 3 ? 0.1 : 0.05;
  const t = 4 * dp;
  const [Lz, tz] = dim === 3 ? [0.5, t] : [0, 0];
  const walls = sideWalls(dim, [W, 1, Lz], dp, rho);
  const plateParticles = particlesFromShape(box([-t, -t, -tz], [W + t, 0, Lz + tz]), dp, dim, rho);
  const plate = new ElasticSolid(plateParticles, {
    dim,
    dp,
    material: { model: 'linear_elastic', rho0: rho, youngsModulus: o.youngsModulus, poissonRatio: 0.3 },
    fixed: (x) => o.fixed(x, W),
    damping: o.damping ?? 0,
  });
  const water = particlesFromShape(box([0, 0, 0], [W, D, Lz]), dp, dim, rho);
  const sim = new FluidStructureInteraction(water, walls, [plate], {
    dim,
    dp,
    rho0: rho,
    c0: 10,
    mu: 0.02,
    gravity: [0, -1, 0],
    uRef: Math.sqrt(D),
    freeSurface: true,
    domain: { lower: [-t, -t, -tz], upper: [W + t, 1 + t, Lz + tz], periodic: [false, false, false] },
  });
  const weight = water.count * water.mass[0]!;
  return { sim, plate, weight, W, D, t, dp };
}

/** Mean fluid force on solid 0 over the advection steps from `from` to `end` (s). */
function meanForce(sim: FluidStructureInteraction, from: number, end: number): [number, number, number] {
  sim.run(from);
  const sum = [0, 0, 0];
  let n = 0;
  sim.run(end, () => {
    const f = sim.fluidForce(0);
    for (let a = 0; a < 3; a++) sum[a] = sum[a]! + f[a]!;
    n++;
  });
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

describe('fluid–structure interaction', () => {
  it('a clamped plate under a water layer carries the weight of the water (hydrostatic force balance)', () => {
    const { sim, weight } = plateUnderWater({ fixed: () => true, youngsModulus: 100 });
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

  it('3D: a clamped plate under a water layer carries the weight of the water', () => {
    const { sim, weight } = plateUnderWater({ dim: 3, fixed: () => true, youngsModulus: 100 });
    const [fx, fy, fz] = meanForce(sim, 2, 3);
    // Coarse (5 particle layers of water): within 3 %; the sideways forces cancel by symmetry.
    expect(Math.abs(-fy / weight - 1)).toBeLessThan(0.03);
    expect(Math.abs(fx / weight)).toBeLessThan(1e-9);
    expect(Math.abs(fz / weight)).toBeLessThan(1e-9);
  }, 120_000);

  it('a flexible plate clamped at both ends sags as under the hydrostatic pressure, stays stable and balances the load', () => {
    const E = 2000;
    const clamped = { fixed: (x: number, w: number) => x < 0 || x > w, youngsModulus: E, damping: 5, W: 2 };
    const { sim, plate, weight, W, D, dp } = plateUnderWater(clamped);
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
    const dry = plateUnderWater(clamped).plate;
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

describe('fluid–structure interaction on worker threads', () => {
  /** Bytes of the fluid's and the plate's state after a short run of the flexible plate on `threads` threads. */
  async function stateAfter(threads: number): Promise<Uint8Array[]> {
    const { sim, plate } = plateUnderWater({ fixed: (x, w) => x < 0 || x > w, youngsModulus: 2000, damping: 5, W: 2 });
    sim.fluid.minWorkPerThread = 0;
    await sim.startThreads(threads);
    try {
      expect(sim.threads).toBe(threads);
      expect(plate.threads).toBe(threads);
      sim.run(0.3);
    } finally {
      await sim.stopThreads();
    }
    expect(plate.threads).toBe(1);
    const { fluid, wall } = sim.fluid;
    const p = plate.particles;
    const bytes = (f: Float64Array, n: number): Uint8Array => new Uint8Array(f.buffer, 0, 8 * n).slice();
    return [
      ...[fluid.x, fluid.y, fluid.vx, fluid.vy, fluid.rho, fluid.p].map((f) => bytes(f, fluid.count)),
      ...[wall.x, wall.y, wall.vx, wall.vy, wall.ax, wall.ay, wall.nx, wall.ny].map((f) => bytes(f, wall.count)),
      ...[p.x, p.y, p.vx, p.vy, p.ax, p.ay].map((f) => bytes(f, p.count)),
      bytes(plate.F, 9 * p.count),
      bytes(plate.P, 9 * p.count),
    ];
  }

  it('the coupled fluid and solid give byte-identical states on 1, 2 and 3 threads', async () => {
    const one = await stateAfter(1);
    const two = await stateAfter(2);
    const three = await stateAfter(3);
    expect(two).toEqual(one);
    expect(three).toEqual(one);
  }, 120_000);
});
