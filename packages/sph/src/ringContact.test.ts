import { describe, expect, it } from 'vitest';
import { ringInTube, ringInTubeReference, torusParticles } from './ringContact';

// The solid kind's contact pressure and force against references (docs/decisions/solid-contact-pressure.md,
// docs/validation.md "A ring pressed into a rigid tube"; three resolutions in packages/sph/scripts/ring-contact.ts).

describe('ring pressed into a rigid tube', () => {
  it('builds a torus whose particle volumes add up to 2π²Ra²', () => {
    const t = torusParticles(0.05, 1, 0.15, 1000);
    let vol = 0;
    for (let i = 0; i < t.count; i++) vol += t.vol[i]!;
    expect(vol / (2 * Math.PI ** 2 * 1 * 0.15 ** 2)).toBeCloseTo(1, 2);
  });

  it('the reference: uniaxial hoop force plus the radial stress term, Hertz p₀ = E*b/(2a)', () => {
    const r = ringInTubeReference({ nominalRadius: 1, radius: 0.99, tube: 0.1, youngsModulus: 1e6, poissonRatio: 0.3 });
    expect(r.hoopForce).toBeCloseTo((1e6 * Math.PI * 0.01 * 0.01) / (1 - 0.03 / 0.99), 9);
    expect(r.contactForce).toBeCloseTo(2 * Math.PI * r.hoopForce, 9);
    expect(r.peakPressure).toBeCloseTo(((1e6 / 0.91) * r.halfWidth) / 0.2, 6);
  });

  it('the contact force and pressure the product reports agree with the ring’s equilibrium and elasticity', () => {
    // a/dp = 2 (as the solid kind's ring at the test and coarse resolutions), the tube 1 % narrower than the ring.
    const r = ringInTube({ resolution: 2, fit: 0.99 });
    const ref = r.reference;
    expect(ref.strain).toBeLessThan(0);
    // The expansion's output (Σ pressure × particle face on the tube) is the tube's normal force (no area error).
    expect(Math.abs(r.contactForce / r.radialForce - 1)).toBeLessThan(0.01);
    // Equilibrium of half the ring: 2π × the hoop force of the ring's own stress (measured +2.9 %; first order in dp).
    expect(Math.abs(r.contactForce / (2 * Math.PI * r.hoopForce) - 1)).toBeLessThan(0.05);
    // Elasticity at the measured centre-line radius (measured +2.1 %; the reference neglects O(ε), O((a/R)²)).
    expect(Math.abs(r.contactForce / ref.contactForce - 1)).toBeLessThan(0.05);
    // The contact is narrower than a particle (b < dp): the largest pressure is the line load over the contact's
    // discrete width, which lies between a particle face and the kernel's reach on both sides (2 × 2.6 dp), and a
    // face average cannot exceed Hertz's pointwise peak.
    expect(ref.halfWidth).toBeLessThan(r.dp);
    expect(r.peakPressure).toBeLessThanOrEqual(ref.peakPressure);
    expect(r.peakPressure).toBeGreaterThanOrEqual(ref.lineLoad / (2 * ref.halfWidth + 5.2 * r.dp));
    expect(r.peakPressure).toBeLessThanOrEqual(ref.lineLoad / r.dp);
  }, 60_000);
});
