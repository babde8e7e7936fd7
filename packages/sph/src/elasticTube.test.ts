import { describe, expect, it } from 'vitest';
import { ringInElasticTube } from './elasticTube';

describe('a device ring expanded into an elastic tube (the elastic anatomy) against Lamé', () => {
  it('line load (mean contact pressure) within 3 % of the tube’s Lamé pressure; the shrink-fit error falls with dp', () => {
    // Interference 1 % of the radius (fit 0.99): the tube's strain stays below 1 %, where the neo-Hookean tube is
    // linear to about 1 % (at 3 % interference the tube relation is 4 % off, the O(ε) non-linearity).
    const runs = [0.05, 0.04].map((dp) => ringInElasticTube({ dp, tubeInner: 0.99 }));
    for (const r of runs) {
      // Quasi-static at the end (kinetic energy ≪ the strain energy scale).
      expect(r.kinetic).toBeLessThan(1e-4);
      // The product's line load against the pressure the tube's own inner-wall displacement implies (Lamé, outer
      // surface free): the contact's force transfer and the tube's elasticity, within 3 %.
      expect(Math.abs(r.pressure / r.lameFromTube - 1)).toBeLessThan(0.03);
      // The contact layer (a fraction of dp) only adds compliance in series: never above the shrink fit (3 %).
      expect(r.pressure).toBeLessThan(1.03 * r.lameShrinkFit);
    }
    // ... and the interference it takes shrinks with dp: the shrink-fit error falls at the finer spacing.
    const [coarse, fine] = runs.map((r) => Math.abs(r.pressure / r.lameShrinkFit - 1)) as [number, number];
    expect(fine).toBeLessThan(coarse);
  }, 60_000);

  it('a tube of twice the ring’s spacing (the elastic wall coarser than the device): the same bounds', () => {
    // Tube spacing 0.1 (4 layers through 0.4 m), ring spacing 0.05: the contact takes the mean spacing. Measured
    // (docs/decisions/solid-contact-pressure.md): +0.33 % from the tube's Lamé pressure, −12 % from the shrink fit.
    // With the larger spacing's contact offset the bodies stood (0.1 − 0.05)/2 apart, an extra interference of 2.5× the
    // 0.01 m asked: the line load was 3× the shrink fit's.
    const r = ringInElasticTube({ dp: 0.05, tubeDp: 0.1, tubeThickness: 0.4, tubeInner: 0.99 });
    expect(r.kinetic).toBeLessThan(1e-4);
    expect(Math.abs(r.pressure / r.lameFromTube - 1)).toBeLessThan(0.03);
    expect(r.pressure).toBeLessThan(1.03 * r.lameShrinkFit);
  }, 60_000);
});
