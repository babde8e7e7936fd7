import { describe, expect, it } from 'vitest';
import { DAM_BREAK_FRONT_REFERENCE, damBreakFrontComparison } from './damBreakReference';

describe('dam break: code-to-code check of the surge front (TrixiParticles.jl δ-SPH / EDAC reference data)', () => {
  it('front within 3 % of the published H/400 δ-SPH front at t√(2g/H) = 0.5 … 3, dp = H/40', () => {
    // The reference is converged to about 1 % (H/80 → H/400: +0.9 … +1.3 %; WCSPH vs EDAC at H/400: 0.2 %), so
    // 3 % is the band around it. Measured at H/40: −1.2 … −2.1 % (H/20: −3.1 … −4.2 %, outside the band).
    const r = damBreakFrontComparison(0.025);
    expect(r.T).toEqual(DAM_BREAK_FRONT_REFERENCE.T);
    for (const d of r.difference.wcsph400) expect(Math.abs(d)).toBeLessThan(0.03);
    for (const d of r.difference.edac400) expect(Math.abs(d)).toBeLessThan(0.03);
    // At the same resolution (H/40), the two codes agree within 1 % (measured +0.1 … +0.6 %).
    for (const d of r.difference.wcsph40) expect(Math.abs(d)).toBeLessThan(0.01);
  }, 120_000);
});
