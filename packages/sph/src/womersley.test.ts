import { describe, expect, it } from 'vitest';
import { womersleyAmplitude, womersleyNumber, womersleyRun, womersleyVelocity } from './womersley';

describe('Womersley flow (2D channel, oscillating pressure gradient)', () => {
  it('the analytic solution satisfies its equation, the no-slip walls, and the Stokes and quasi-steady limits', () => {
    const w = { height: 1, nu: 0.1, omega: 2 * Math.PI, amplitude: 3 };
    expect(womersleyVelocity(0, 0.3, w)).toBeCloseTo(0, 12);
    expect(womersleyVelocity(1, 0.7, w)).toBeCloseTo(0, 12);
    // ∂u/∂t = A cos ωt + ν ∂²u/∂y², by central differences.
    const [y, t, e] = [0.23, 0.41, 1e-4];
    const dudt = (womersleyVelocity(y, t + e, w) - womersleyVelocity(y, t - e, w)) / (2 * e);
    const d2u =
      (womersleyVelocity(y + e, t, w) - 2 * womersleyVelocity(y, t, w) + womersleyVelocity(y - e, t, w)) / (e * e);
    expect(dudt).toBeCloseTo(w.amplitude * Math.cos(w.omega * t) + w.nu * d2u, 5);
    // α ≪ 1: the quasi-steady parabola A cos ωt · y(H − y)/(2ν), in phase with the force.
    const slow = { ...w, omega: 1e-4 };
    expect(womersleyNumber(slow)).toBeLessThan(0.02);
    const [re, im] = womersleyAmplitude(0.5, slow);
    expect(re / ((slow.amplitude * 0.25) / (2 * slow.nu))).toBeCloseTo(1, 6);
    expect(Math.abs(im / re)).toBeLessThan(1e-3);
    // α ≫ 1: a plug A/ω lagging the force by 90° in the core.
    const fast = { ...w, omega: 1e4 };
    const [cr, ci] = womersleyAmplitude(0.5, fast);
    expect(cr / (fast.amplitude / fast.omega)).toBeCloseTo(0, 6);
    expect(-ci / (fast.amplitude / fast.omega)).toBeCloseTo(1, 6);
  });

  // Starts from the analytic state at t = 0 and runs two periods at dp = H/20 (400 particles, about 1 s each).
  for (const alpha of [3, 5]) {
    it(`SPH at α = ${alpha}, H/20: profile within 2 % of the centre amplitude at 4 phases, amplitude within 2 %, phase within 0.02 rad`, () => {
      const r = womersleyRun({ dp: 1 / 20, alpha }, 2, 4);
      expect(r.profileErrors).toHaveLength(4);
      for (const p of r.profileErrors) expect(p.maxError).toBeLessThan(0.02);
      expect(r.amplitudeError).toBeLessThan(0.02);
      expect(Math.abs(r.centreAmplitudeError)).toBeLessThan(0.02);
      expect(Math.abs(r.centrePhaseError)).toBeLessThan(0.02);
    });
  }
});
