import { describe, expect, it } from 'vitest';
import { WeaklyCompressibleFluid } from './fluid';
import { box, particlesFromShape } from './geometry';
import { ParticleArrays } from './particles';
import { BLOOD_CARREAU, apparentViscosity, checkViscosityModel } from './viscosity';

describe('blood viscosity', () => {
  it('Carreau blood (Cho & Kensey): μ₀ at rest, μ∞ at high shear, the closed form in between', () => {
    expect(apparentViscosity(BLOOD_CARREAU, 0)).toBeCloseTo(0.056, 12);
    expect(apparentViscosity(BLOOD_CARREAU, 1e7)).toBeCloseTo(0.00345, 4);
    // γ̇ = 1/λ: μ∞ + (μ₀ − μ∞)·2^((n − 1)/2).
    const mid = 0.00345 + (0.056 - 0.00345) * Math.pow(2, (0.3568 - 1) / 2);
    expect(apparentViscosity(BLOOD_CARREAU, 1 / 3.313)).toBeCloseTo(mid, 12);
    // Shear-thinning: falls monotonically with the shear rate.
    expect(apparentViscosity(BLOOD_CARREAU, 10)).toBeLessThan(apparentViscosity(BLOOD_CARREAU, 1));
    expect(() => checkViscosityModel({ ...BLOOD_CARREAU, n: 1.5 })).toThrow(/power-law index/);
    expect(() => checkViscosityModel({ ...BLOOD_CARREAU, muInf: 1 })).toThrow(/muInf/);
  });

  it('the per-particle shear rate of a linear shear flow is its rate, and μ follows the model', () => {
    const dp = 0.05;
    const fluid = particlesFromShape(box([0, 0, 0], [1, 1, 0]), dp, 2, 1060);
    const G = 40;
    for (let i = 0; i < fluid.count; i++) fluid.vx[i] = G * fluid.y[i]!;
    const sim = new WeaklyCompressibleFluid(fluid, new ParticleArrays(2, 0), {
      dim: 2,
      dp,
      rho0: 1060,
      c0: 10,
      mu: 0,
      gravity: [0, 0, 0],
      uRef: 1,
      freeSurface: false,
      domain: { lower: [0, 0, 0], upper: [1, 1, 0], periodic: [true, true, false] },
      viscosity: BLOOD_CARREAU,
    });
    sim.updateNeighbours();
    sim.densitySummation();
    const { mu, shearRate } = sim.particleViscosity;
    let checked = 0;
    for (let i = 0; i < fluid.count; i++) {
      // Away from the periodic seam in y, where the velocity jumps.
      if (fluid.y[i]! < 0.2 || fluid.y[i]! > 0.8) continue;
      expect(shearRate[i]).toBeCloseTo(G, 6);
      expect(mu[i]).toBeCloseTo(apparentViscosity(BLOOD_CARREAU, G), 10);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
