import { describe, expect, it } from 'vitest';
import {
  DERIVED_OUTPUTS,
  FluidAge,
  meanPressure,
  pressureDrop,
  volumeFlowRate,
  vorticity,
  wallShearStress,
} from './derived';
import { ball, box, particlesFromShape } from './geometry';
import { hagenPoiseuilleTube, openPoiseuilleChannel } from './openCases';
import { outputUnit, siToUnitFactor } from './outputLabels';
import type { ParticleArrays } from './particles';
import { tube } from '../test/shapes';
import { vesselFromMesh } from './vessel';
import { BLOOD_CARREAU, apparentViscosity } from './viscosity';

/** Sets the fluid to the Poiseuille profile u(r) along x (r from the x axis through (·, cy, cz)); walls at rest. */
function poiseuille(f: ParticleArrays, u: (r: number) => number, cy = 0, cz = 0): void {
  for (let i = 0; i < f.count; i++) {
    f.vx[i] = u(Math.hypot(f.y[i]! - cy, f.dim === 3 ? f.z[i]! - cz : 0));
    f.vy[i] = 0;
    f.vz[i] = 0;
  }
}

/** Mean and largest relative deviation of the surface-layer values from `exact` among wall particles with x0 < x < x1. */
function surfaceStats(
  wall: ParticleArrays,
  tau: { magnitude: Float64Array; surface: Uint8Array },
  exact: number,
  x0: number,
  x1: number,
): { mean: number; worst: number; n: number } {
  let sum = 0;
  let worst = 0;
  let n = 0;
  for (let i = 0; i < wall.count; i++) {
    if (!tau.surface[i] || wall.x[i]! < x0 || wall.x[i]! > x1) continue;
    sum += tau.magnitude[i]!;
    worst = Math.max(worst, Math.abs(tau.magnitude[i]! / exact - 1));
    n++;
  }
  return { mean: sum / n / exact, worst, n };
}

describe('derived outputs', () => {
  it('units per spec §9: flow rate in L/min, pressure in Pa or mmHg, wall shear stress in Pa, vorticity in 1/s', () => {
    expect(outputUnit(DERIVED_OUTPUTS.flowRate)).toBe('L/min');
    expect(siToUnitFactor('L/min')).toBe(6e4);
    expect(outputUnit(DERIVED_OUTPUTS.pressure)).toBe('Pa');
    expect(outputUnit(DERIVED_OUTPUTS.pressureDrop, 'medical')).toBe('mmHg');
    expect(outputUnit(DERIVED_OUTPUTS.wallShearStress)).toBe('Pa');
    expect(outputUnit(DERIVED_OUTPUTS.vorticity)).toBe('1/s');
    expect(outputUnit(DERIVED_OUTPUTS.capturePercentage)).toBe('%');
    expect(outputUnit(DERIVED_OUTPUTS.residenceTime)).toBe('s');
    expect(siToUnitFactor('s')).toBe(1);
  });

  it('flow rate of a uniform flow through a plane and through a disc; mean pressure and pressure drop of a linear field', () => {
    const dp = 0.05;
    const f = particlesFromShape(box([0, 0, 0], [1, 0.5, 0.4]), dp, 3, 1000);
    const v: [number, number, number] = [0.3, 0.1, -0.05];
    for (let i = 0; i < f.count; i++) {
      f.vx[i] = v[0];
      f.vy[i] = v[1];
      f.vz[i] = v[2];
      f.p[i] = 2000 - 500 * f.x[i]!;
    }
    // Through x = 0.5 (section 0.5 × 0.4 m): 0.3 × 0.2 = 0.06 m³/s = 3600 L/min.
    const q = volumeFlowRate(f, { centre: [0.5, 0.25, 0.2], normal: [2, 0, 0] }, dp);
    expect(q).toBeCloseTo(0.06, 12);
    expect(q * siToUnitFactor('L/min')!).toBeCloseTo(3600, 8);
    // Through y = 0.25 within a disc of radius 0.15 about (0.5, ·, 0.2): v_y × the lattice columns' area in the disc.
    const disc = volumeFlowRate(f, { centre: [0.5, 0.25, 0.2], normal: [0, 1, 0], radius: 0.15 }, dp);
    let columns = 0;
    for (let i = 0; i < 20; i++) {
      for (let k = 0; k < 8; k++) columns += Math.hypot((i + 0.5) * dp - 0.5, (k + 0.5) * dp - 0.2) < 0.15 ? 1 : 0;
    }
    expect(disc).toBeCloseTo(0.1 * columns * dp * dp, 12);
    expect(meanPressure(f, { centre: [0.3, 0.25, 0.2], normal: [1, 0, 0] }, dp)).toBeCloseTo(1850, 9);
    const drop = pressureDrop(
      f,
      { centre: [0.2, 0.25, 0.2], normal: [1, 0, 0] },
      { centre: [0.8, 0.25, 0.2], normal: [1, 0, 0] },
      dp,
    );
    expect(drop).toBeCloseTo(300, 9);
    expect(drop * siToUnitFactor('mmHg')!).toBeCloseTo(300 / 133.322387415, 9);
    expect(() => meanPressure(f, { centre: [5, 0, 0], normal: [1, 0, 0] }, dp)).toThrow(/no fluid particle/);
  });

  it('vorticity of a solid-body rotation is 2Ω at every particle, surface included (3D ball, 2D disc)', () => {
    const dp = 0.05;
    const omega: [number, number, number] = [0.3, -0.2, 1.5];
    const b = particlesFromShape(ball([0, 0, 0], 0.3, 3), dp, 3, 1);
    for (let i = 0; i < b.count; i++) {
      const [x, y, z] = [b.x[i]!, b.y[i]!, b.z[i]!];
      b.vx[i] = omega[1] * z - omega[2] * y + 0.7;
      b.vy[i] = omega[2] * x - omega[0] * z;
      b.vz[i] = omega[0] * y - omega[1] * x;
    }
    const w = vorticity(b, null, { dp });
    for (let i = 0; i < b.count; i++) {
      for (let a = 0; a < 3; a++) expect(w[3 * i + a]).toBeCloseTo(2 * omega[a]!, 9);
    }
    const d = particlesFromShape(ball([0, 0, 0], 0.3, 2), dp, 2, 1);
    for (let i = 0; i < d.count; i++) {
      d.vx[i] = -1.5 * d.y[i]!;
      d.vy[i] = 1.5 * d.x[i]!;
    }
    const w2 = vorticity(d, null, { dp });
    for (let i = 0; i < d.count; i++) {
      expect(w2[3 * i + 2]).toBeCloseTo(3, 9);
      expect(w2[3 * i]).toBe(0);
    }
  });

  it('wall shear stress of Poiseuille flow = 4μQ/(πR³) in the ring-built tube and the mesh tube, 3μū/R in the 2D channel, μ(γ̇)γ̇ for Carreau blood', () => {
    const R = 0.5;
    const L = 2;
    const U = 1;
    const mu = 0.5;
    const exact = (4 * mu * (U * Math.PI * R * R)) / (Math.PI * R ** 3);
    const profile = (r: number): number => 2 * U * Math.max(0, 1 - (r * r) / (R * R));
    const dp = R / 6;
    const ring = hagenPoiseuilleTube({ radius: R, length: L, dp, rho0: 1, mu, meanVelocity: U }).open.sim;
    poiseuille(ring.fluid, profile);
    const ringStats = surfaceStats(ring.wall, wallShearStress(ring.fluid, ring.wall, { dp, mu }), exact, 0.5, 1.5);
    // Measured: mean −0.8 %, worst particle 2.6 %.
    expect(ringStats.n).toBeGreaterThan(100);
    expect(Math.abs(ringStats.mean - 1)).toBeLessThan(0.02);
    expect(ringStats.worst).toBeLessThan(0.05);
    // With the wall's exact distance (R − r) the quadratic fit is exact.
    const known = wallShearStress(ring.fluid, ring.wall, {
      dp,
      mu,
      surfaceDistance: (_x, y, z) => Math.hypot(y, z) - R,
    });
    expect(surfaceStats(ring.wall, known, exact, 0.5, 1.5).worst).toBeLessThan(1e-9);

    const lb = 4 * dp;
    const vessel = vesselFromMesh(tube(R, -lb - 3 * dp, L + lb + 3 * dp, 96, 16), {
      scale: 1,
      dp,
      rho0: 1,
      inlets: [{ centre: [0, 0, 0], direction: [1, 0, 0], radius: R, flowRate: 1 }],
      outlets: [{ centre: [L, 0, 0], direction: [1, 0, 0], radius: R, pressure: 0 }],
    });
    poiseuille(vessel.fluid, profile);
    // A lattice wall has no fixed depth below the surface (the staircase): the mesh's own distance gives the heights.
    const meshStats = surfaceStats(
      vessel.wall,
      wallShearStress(vessel.fluid, vessel.wall, { dp, mu, surfaceDistance: vessel.shape.distance! }),
      exact,
      0.5,
      1.5,
    );
    // Measured: mean +0.5 %, worst particle 0.7 %.
    expect(meshStats.n).toBeGreaterThan(100);
    expect(Math.abs(meshStats.mean - 1)).toBeLessThan(0.02);
    expect(meshStats.worst).toBeLessThan(0.02);

    const channel = openPoiseuilleChannel({ radius: R, length: L, dp: 0.05, rho0: 1, mu, meanVelocity: U }).open.sim;
    poiseuille(channel.fluid, (r) => 1.5 * U * Math.max(0, 1 - (r * r) / (R * R)), R);
    const tau2 = wallShearStress(channel.fluid, channel.wall, { dp: 0.05, mu });
    const channelStats = surfaceStats(channel.wall, tau2, (3 * mu * U) / R, 0.5, 1.5);
    expect(channelStats.worst).toBeLessThan(1e-9);

    // Carreau blood: the viscosity at the wall's shear rate.
    const blood = wallShearStress(channel.fluid, channel.wall, { dp: 0.05, mu: BLOOD_CARREAU });
    const rate = (3 * U) / R;
    expect(
      surfaceStats(channel.wall, blood, apparentViscosity(BLOOD_CARREAU, rate) * rate, 0.5, 1.5).worst,
    ).toBeLessThan(1e-9);
  }, 60_000);

  it('residence time: the fluid crossing a plane x past the inlet of a plug flow has spent x/U inside', () => {
    const dp = 0.05;
    const pipe = openPoiseuilleChannel({
      radius: 0.25,
      length: 1,
      dp,
      rho0: 1,
      mu: 1e-4,
      meanVelocity: 1,
      profile: 'plug',
      c0: 20,
    });
    const open = pipe.open;
    const age = new FluidAge(open.sim.fluid, 0, open);
    open.run(0.9, (c) => age.update(c.time));
    const ages = age.ages();
    let buffered = 0;
    for (let i = 0; i < open.sim.fluid.count; i++) if (open.isEmitter(i)) buffered += Number.isNaN(ages[i]!) ? 1 : 0;
    expect(buffered).toBe(open.emitterCount);
    const mean = age.meanThroughPlane({ centre: [0.6, 0.25, 0], normal: [1, 0, 0] }, dp);
    // Entry times are known to one advection step (about 0.016 s here).
    expect(Math.abs(mean / 0.6 - 1)).toBeLessThan(0.05);
  }, 60_000);
});
