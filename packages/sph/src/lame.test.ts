import { describe, expect, it } from 'vitest';
import { lameRing, lameRun, lameSolution } from './lame';

describe("Lamé's thick-walled cylinder (2D ring, plane strain, internal pressure)", () => {
  it("Lamé's closed form: boundary tractions, equilibrium and the strain–displacement relations", () => {
    const o = { inner: 1, outer: 2, youngsModulus: 1e6, poissonRatio: 0.3, pressure: 100 };
    expect(lameSolution(1, o).radialStress).toBeCloseTo(-100, 9);
    expect(lameSolution(2, o).radialStress).toBeCloseTo(0, 9);
    // dσ_r/dr + (σ_r − σ_θ)/r = 0, and σ_r from the plane-strain Hooke's law of ε_r = du/dr, ε_θ = u/r.
    const [r, e] = [1.37, 1e-5];
    const s = lameSolution(r, o);
    const dsr = (lameSolution(r + e, o).radialStress - lameSolution(r - e, o).radialStress) / (2 * e);
    expect(dsr + (s.radialStress - s.hoopStress) / r).toBeCloseTo(0, 5);
    const { youngsModulus: E, poissonRatio: nu } = o;
    const epsR = (lameSolution(r + e, o).ur - lameSolution(r - e, o).ur) / (2 * e);
    const epsT = s.ur / r;
    const c = E / ((1 + nu) * (1 - 2 * nu));
    expect(c * ((1 - nu) * epsR + nu * epsT)).toBeCloseTo(s.radialStress, 4);
    expect(() => lameRing({ dp: 0.3 })).toThrow(/whole number/);
  });

  it('SPH at dp = (b − a)/10 (943 particles): inner-wall radial displacement within 3 %, stresses within 0.1 p', () => {
    const { profile, errors, ring } = lameRun({ dp: 0.1 });
    expect(ring.solid.particles.count).toBe(943);
    // The criterion: the inner wall's radial displacement within 3 % (measured −1.0 %).
    expect(Math.abs(errors.innerDisplacement)).toBeLessThan(0.03);
    expect(Math.abs(errors.outerDisplacement)).toBeLessThan(0.03);
    // Every ring's displacement within 3 %.
    for (let k = 0; k < profile.ur.length; k++)
      expect(Math.abs(profile.ur[k]! / profile.exact.ur[k]! - 1)).toBeLessThan(0.03);
    // Hoop stress on every ring within 0.1 p (it is 1.67 p … 0.67 p; measured 0.043 p at most).
    expect(errors.hoopStress).toBeLessThan(0.1);
    // Radial stress inside the wall (rings at least 2 dp from both surfaces) within 0.05 p (measured 0.009 p). The
    // traction acts as a force on the inner ring's particles, not as a stress, and the kernel is one-sided within its
    // cut-off (2.6 dp) of a surface: there the radial stress is off by +0.34 p (inner ring) and +0.06 p (next ring).
    const last = profile.radialStress.length - 1;
    for (let k = 2; k < last - 1; k++)
      expect(Math.abs(profile.radialStress[k]! - profile.exact.radialStress[k]!) / 100).toBeLessThan(0.05);
    // At rest.
    expect(errors.kinetic).toBeLessThan(1e-6);
  });
});
