import { describe, expect, it } from 'vitest';
import { quarterPeriod } from './beamPeriod';
import { oscillatingBeam } from './cases';
import { box, particlesFromShape } from './geometry';
import { setIdentity } from './mat3';
import { ElasticMaterial, vonMisesStrain, vonMisesStress } from './material';
import { ElasticSolid } from './solid';

describe('elastic materials', () => {
  it('derives the moduli and the sound speed as SPHinXsys does', () => {
    const m = new ElasticMaterial({ model: 'linear_elastic', rho0: 1000, youngsModulus: 2e6, poissonRatio: 0.3975 });
    expect(m.bulkModulus).toBeCloseTo(2e6 / (3 * (1 - 2 * 0.3975)), 6);
    expect(m.shearModulus).toBeCloseTo(2e6 / (2 * 1.3975), 6);
    expect(m.soundSpeed).toBeCloseTo(Math.sqrt(m.bulkModulus / 1000), 9);
    expect(() => new ElasticMaterial({ model: 'neo_hookean', rho0: 1, youngsModulus: 1, poissonRatio: 0.5 })).toThrow(
      /Poisson/,
    );
  });

  it('gives linear-elastic and neo-Hookean stresses that agree at small strain and match closed forms', () => {
    const F = new Float64Array(9);
    setIdentity(F, 0);
    F[0] = 1.001; // uniaxial stretch, plane strain
    const S = new Float64Array(9);
    const o = { rho0: 1000, youngsModulus: 1e6, poissonRatio: 0.3 };
    const lin = new ElasticMaterial({ model: 'linear_elastic', ...o });
    const nh = new ElasticMaterial({ model: 'neo_hookean', ...o });
    lin.stressPK2(F, 0, S, 0);
    const E = 0.5 * (1.001 ** 2 - 1);
    expect(S[0]).toBeCloseTo((lin.lambda + 2 * lin.shearModulus) * E, 6);
    expect(S[4]).toBeCloseTo(lin.lambda * E, 6);
    const sLin = S[0]!;
    nh.stressPK2(F, 0, S, 0);
    expect(S[0]! / sLin).toBeCloseTo(1, 2);
    // Neo-Hookean closed form: S = G (I − C⁻¹) + λ ln J C⁻¹ with C⁻¹_xx = 1/1.001².
    const cInv = 1 / 1.001 ** 2;
    expect(S[0]).toBeCloseTo(nh.shearModulus * (1 - cInv) + nh.lambda * Math.log(1.001) * cInv, 6);
    // Von Mises of the plane-strain Cauchy stress, and the equivalent strain.
    lin.stressPK2(F, 0, S, 0);
    const sx = (1.001 * S[0]! * 1.001) / 1.001;
    const sy = S[4]! / 1.001;
    const sz = S[8]! / 1.001;
    const expected = Math.sqrt(0.5 * ((sx - sy) ** 2 + (sy - sz) ** 2 + (sz - sx) ** 2));
    expect(vonMisesStress(F, 0, S, 0)).toBeCloseTo(expected, 6);
    expect(vonMisesStrain(F, 0, new Float64Array(9))).toBeCloseTo((2 / 3) * E, 9);
  });
});

describe('total Lagrangian elastic solid', () => {
  it('uniaxial tension of a clamped bar: displacement within 2 % of σ(1 − ν²)x/E (plane strain)', () => {
    const dp = 0.004;
    const [L, H, E, nu, rho, sigma] = [0.2, 0.02, 1e6, 0.3, 1000, 1000];
    const bar = particlesFromShape(box([-4 * dp, -H / 2, 0], [L, H / 2, 0]), dp, 2, rho);
    const solid = new ElasticSolid(bar, {
      dim: 2,
      dp,
      material: { model: 'linear_elastic', rho0: rho, youngsModulus: E, poissonRatio: nu },
      fixed: (x) => x < 0,
      damping: 300, // ≈ the first axial mode's angular frequency: settles in a few periods
    });
    // Traction σ on the free end, as an external acceleration of its particle column.
    for (let i = 0; i < bar.count; i++) if (bar.x[i]! > L - dp) bar.apx[i] = sigma / (rho * dp);
    solid.run(0.15);
    const meanUx = (x: number): number => {
      let s = 0;
      let n = 0;
      for (let i = 0; i < bar.count; i++) {
        if (Math.abs(solid.x0[i]! - x) < dp / 2) {
          s += bar.x[i]! - solid.x0[i]!;
          n++;
        }
      }
      return s / n;
    };
    const strain = (sigma * (1 - nu * nu)) / E;
    const tipX = L - dp / 2;
    expect(Math.abs(meanUx(tipX) / (strain * L) - 1)).toBeLessThan(0.02);
    expect(Math.abs((meanUx(0.15) - meanUx(0.05)) / (0.1 * strain) - 1)).toBeLessThan(0.03);
    expect(solid.kineticEnergy()).toBeLessThan(1e-10);
    // Fixed particles stay put; the output names the solid fields.
    const out = solid.output();
    expect(Object.keys(out.fields)).toEqual([
      'position',
      'displacement',
      'velocity',
      'von_mises_stress',
      'von_mises_strain',
    ]);
    const clamped = Array.from({ length: bar.count }, (_, i) => i).filter((i) => solid.fixed[i] === 1);
    expect(clamped.length).toBe(4 * 5);
    for (const i of clamped) expect(out.fields.displacement![0]![i]).toBe(0);
    // Mid-bar von Mises stress of plane-strain uniaxial tension: √(σ² − σσ_z + σ_z²), σ_z = νσ.
    const mid = Array.from({ length: bar.count }, (_, i) => i).find(
      (i) => Math.abs(solid.x0[i]! - 0.1) <= dp / 2 + 1e-12 && Math.abs(solid.y0[i]!) < dp,
    )!;
    const vm = Math.sqrt(sigma ** 2 - sigma * nu * sigma + (nu * sigma) ** 2);
    expect(Math.abs(out.fields.von_mises_stress![0]![mid]! / vm - 1)).toBeLessThan(0.03);
  }, 60_000);

  it('oscillating cantilever plate with the case defaults (dp = H/10, built-in clamp, second-order gradients): period within 3 % of the Euler–Bernoulli 0.2541 s', () => {
    // The defaults of `oscillatingBeam` are the accurate choice; the analytic period is the first clamped–free mode
    // of an Euler–Bernoulli plate in plane strain (kL = 1.875; e.g. Timoshenko, Vibration Problems in Engineering).
    const beam = oscillatingBeam();
    const { solid, analyticPeriod } = beam;
    expect(solid.gradientOrder).toBe(2);
    expect(analyticPeriod).toBeCloseTo(0.2541, 4);
    // SPHinXsys's initial velocity is the first bending mode, so the tip deflection peaks at T/4 (`quarterPeriod`:
    // the peak time refined by the parabola through the largest sample and its neighbours).
    const e0 = solid.kineticEnergy();
    const { period, peak } = quarterPeriod(beam);
    expect(Math.abs(period / analyticPeriod - 1)).toBeLessThan(0.03);
    expect(peak).toBeGreaterThan(0.05);
    // Energy is bounded: the numerical damping only removes energy.
    expect(solid.kineticEnergy()).toBeLessThan(e0 * 1.01);
  }, 300_000);
});
