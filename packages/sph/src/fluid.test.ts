import { describe, expect, it } from 'vitest';
import { damBreak, hydrostaticTank, poiseuilleChannel } from './cases';
import { WeaklyCompressibleFluid } from './fluid';
import { box, boxContainerWall, particlesFromShape } from './geometry';
import { ParticleArrays } from './particles';
import {
  hydrostaticProfile,
  kineticEnergy,
  poiseuilleParticleError,
  poiseuilleProfile,
  probePressure,
  surgeFront,
} from './verification';

// Resolutions and end times are chosen so the whole file runs in well under a minute on one core
// (see docs/validation.md, "SPH engine"); longer runs live in packages/sph/scripts/. The hydrostatic and
// Poiseuille checks run on 2 threads; threads.test.ts shows that 1 and 2 threads give bit-identical fields.

describe('weakly compressible fluid', () => {
  it('conserves momentum exactly in a periodic box (pairwise antisymmetric forces)', () => {
    const dp = 0.1;
    const fluid = particlesFromShape(box([0, 0, 0], [1, 1, 0]), dp, 2, 1);
    for (let i = 0; i < fluid.count; i++) {
      fluid.vx[i] = Math.sin(7 * i);
      fluid.vy[i] = Math.cos(3 * i);
      fluid.rho[i] = 1 + 0.01 * Math.sin(i);
    }
    const sim = new WeaklyCompressibleFluid(fluid, new ParticleArrays(2, 0), {
      dim: 2,
      dp,
      rho0: 1,
      c0: 20,
      mu: 0.01,
      gravity: [0, 0, 0],
      uRef: 2,
      freeSurface: false,
      // The conservative pair form: tensile-instability control gives up exact conservation for particles in tension.
      tensileControl: false,
      domain: { lower: [0, 0, 0], upper: [1, 1, 0], periodic: [true, true, false] },
    });
    const momentum = (): [number, number] => {
      let px = 0;
      let py = 0;
      for (let i = 0; i < fluid.count; i++) {
        px += fluid.mass[i]! * fluid.vx[i]!;
        py += fluid.mass[i]! * fluid.vy[i]!;
      }
      return [px, py];
    };
    const before = momentum();
    const e0 = kineticEnergy(sim);
    sim.run(0.2);
    const after = momentum();
    expect(after[0]).toBeCloseTo(before[0], 9);
    expect(after[1]).toBeCloseTo(before[1], 9);
    expect(kineticEnergy(sim)).toBeLessThan(e0);
    expect(sim.counters.acousticSteps).toBeGreaterThan(sim.counters.advectionSteps);
  }, 60_000);

  it('3D: conserves momentum in a periodic box and keeps a collapsing column bounded in a tank', () => {
    const dp = 0.1;
    const fluid = particlesFromShape(box([0, 0, 0], [0.8, 0.8, 0.8]), dp, 3, 1);
    for (let i = 0; i < fluid.count; i++) {
      fluid.vx[i] = 0.1 * Math.sin(5 * i);
      fluid.vz[i] = 0.1 * Math.cos(2 * i);
    }
    const periodic = new WeaklyCompressibleFluid(fluid, new ParticleArrays(3, 0), {
      dim: 3,
      dp,
      rho0: 1,
      c0: 10,
      mu: 0.001,
      gravity: [0, 0, 0],
      uRef: 1,
      freeSurface: false,
      tensileControl: false,
      domain: { lower: [0, 0, 0], upper: [0.8, 0.8, 0.8], periodic: [true, true, true] },
    });
    let pz = 0;
    for (let i = 0; i < fluid.count; i++) pz += fluid.mass[i]! * fluid.vz[i]!;
    periodic.run(0.1);
    let pzAfter = 0;
    for (let i = 0; i < fluid.count; i++) pzAfter += fluid.mass[i]! * fluid.vz[i]!;
    expect(pzAfter).toBeCloseTo(pz, 10);

    // A 0.4 × 0.4 × 0.4 column collapsing in a 1 × 0.4 × 1 tank (3 wall layers).
    const column = particlesFromShape(box([0, 0, 0], [0.4, 0.4, 0.4]), dp, 3, 1);
    const wall = boxContainerWall([0, 0, 0], [1, 0.4, 1], 3 * dp, dp, 3, 1);
    const tank = new WeaklyCompressibleFluid(column, wall, {
      dim: 3,
      dp,
      rho0: 1,
      c0: 10 * 2 * Math.sqrt(0.4),
      mu: 0,
      gravity: [0, 0, -1],
      uRef: 2 * Math.sqrt(0.4),
      freeSurface: true,
      domain: { lower: [-0.3, -0.3, -0.3], upper: [1.3, 0.7, 1.3], periodic: [false, false, false] },
    });
    const energy = (): number => {
      let e = kineticEnergy(tank);
      for (let i = 0; i < column.count; i++) e += column.mass[i]! * column.z[i]!;
      return e;
    };
    const e0 = energy();
    tank.run(1);
    expect(energy()).toBeLessThan(e0);
    expect(kineticEnergy(tank)).toBeGreaterThan(0);
    for (let i = 0; i < column.count; i++) {
      expect(column.z[i]).toBeGreaterThan(-0.05);
      expect(column.x[i]).toBeLessThan(1.05);
      expect(column.y[i]).toBeGreaterThan(-0.05);
      expect(column.y[i]).toBeLessThan(0.45);
    }
  }, 60_000);

  it('2D specialised acoustic half-steps match the generic ones', () => {
    const a = hydrostaticTank({ width: 0.5, depth: 0.5, dp: 0.05, g: 1, rho0: 1, mu: 0.05 });
    const b = hydrostaticTank({ width: 0.5, depth: 0.5, dp: 0.05, g: 1, rho0: 1, mu: 0.05 });
    a.run(0.3);
    b.run(0.3);
    for (const sim of [a, b]) {
      sim.updateNeighbours();
      sim.densitySummation();
      sim.viscousAndBodyForce();
    }
    for (let step = 0; step < 20; step++) {
      a.pressureRelaxation(1e-3);
      a.densityRelaxation(1e-3);
      b.pressureRelaxation2d(1e-3);
      b.densityRelaxation2d(1e-3);
    }
    for (let i = 0; i < a.fluid.count; i++) {
      expect(b.fluid.x[i]).toBeCloseTo(a.fluid.x[i]!, 12);
      expect(b.fluid.vy[i]).toBeCloseTo(a.fluid.vy[i]!, 12);
      expect(b.fluid.rho[i]).toBeCloseTo(a.fluid.rho[i]!, 12);
    }
  }, 60_000);

  it('dam break (dp 0.05): the front advances and mechanical energy never increases', () => {
    const sim = damBreak({ dp: 0.05 });
    const energy = (): number => {
      let e = kineticEnergy(sim);
      for (let i = 0; i < sim.fluid.count; i++) e += sim.fluid.mass[i]! * sim.fluid.y[i]!;
      return e;
    };
    // Hydrostatic-like pressure near the bottom of the column before it has moved much.
    sim.run(0.05);
    const p0 = probePressure(sim, 0.5, 0.1);
    expect(p0).toBeGreaterThan(0.6);
    expect(p0).toBeLessThan(1.1);
    let previous = energy();
    for (const t of [0.5, 1, 1.5]) {
      sim.run(t);
      const e = energy();
      expect(e).toBeLessThanOrEqual(previous * (1 + 1e-6));
      previous = e;
    }
    expect(surgeFront(sim)).toBeGreaterThan(2.5);
    expect(probePressure(sim, 10, 10)).toBe(0);
  }, 60_000);

  it('hydrostatic tank, 2 threads: pressure within 2 % of ρ·g·depth after settling (dp = H/20, t = 4)', async () => {
    const depth = 1;
    const sim = hydrostaticTank({ width: 1, depth, dp: 0.05, g: 1, rho0: 1, mu: 0.05 });
    sim.minWorkPerThread = 0;
    await sim.startThreads(2);
    try {
      sim.run(4);
    } finally {
      await sim.stopThreads();
    }
    const { pressure, expected, depth: d } = hydrostaticProfile(sim, depth, 1, 1, 5);
    for (let b = 0; b < 5; b++) {
      // Bands deeper than 0.2 H; the top band sits within 0.2 H of the free surface (pressure ~ 0).
      if (d[b]! < 0.2) continue;
      expect(Math.abs(pressure[b]! / expected[b]! - 1)).toBeLessThan(0.02);
    }
    expect(kineticEnergy(sim)).toBeLessThan(1e-5);
  }, 60_000);

  it('Poiseuille flow, 2 threads: steady profile within 2 % relative L2 (H = 1, L = 6, dp = H/20, t = 6)', async () => {
    const mu = 0.1;
    const U = 1;
    const g = 12 * mu * U;
    const sim = poiseuilleChannel({ height: 1, length: 6, dp: 0.05, mu, rho0: 1, meanVelocity: U });
    sim.minWorkPerThread = 0;
    await sim.startThreads(2);
    try {
      sim.run(6);
    } finally {
      await sim.stopThreads();
    }
    const { relativeL2, u } = poiseuilleProfile(sim, 1, g, mu, 20);
    expect(relativeL2).toBeLessThan(0.02);
    expect(u[10]).toBeGreaterThan(1.45);
  }, 180_000);

  it('Poiseuille start-up at H/40: particle-wise relative L2 below 2 % at t = 1, 2, 3 (viscous step limit kept)', () => {
    // Before the advection step was capped at the viscous limit, the last acoustic step overshot it (up to 1.5×
    // at H/40) and the explicit viscous update went unstable: 36 % at t = 2, |v_y| up to 0.85 of the centre line.
    const mu = 0.1;
    const g = 12 * mu;
    const sim = poiseuilleChannel({ height: 1, length: 1, dp: 1 / 40, mu, rho0: 1, meanVelocity: 1 });
    for (const t of [1, 2, 3]) {
      sim.run(t);
      const { relativeL2, transverse } = poiseuilleParticleError(sim, 1, g, mu);
      expect(relativeL2).toBeLessThan(0.02);
      expect(transverse).toBeLessThan(0.01);
    }
  }, 60_000);
});
