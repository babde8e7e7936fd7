import { describe, expect, it } from 'vitest';
import { martinMoyceFront } from './martinMoyce';

describe('dam break against Martin & Moyce (1952), n² = 2 column', () => {
  it('front within −5 % … +17 % of the experiment up to T = 3 at dp = a/20 (the 5 % target is not met)', async () => {
    // docs/validation.md: dp = a/20, a/40 and a/80 give the same picture (the lead is not a resolution effect): the
    // first point within 5 %, then a lead of 9–20 %, the simulated front reaching each Z earlier by ΔT ≈ 0.2–0.3.
    const { points } = await martinMoyceFront(0.05, { lastT: 3 });
    expect(points.map((q) => q.T)).toEqual([
      0.41, 0.84, 1.19, 1.43, 1.63, 1.83, 1.98, 2.2, 2.32, 2.51, 2.65, 2.83, 2.98,
    ]);
    expect(Math.abs(points[0]!.largestXError)).toBeLessThan(0.05);
    for (const q of points) {
      for (const e of [q.largestXError, q.layerError]) {
        expect(e).toBeGreaterThan(-0.05);
        expect(e).toBeLessThan(0.17);
      }
    }
    for (const q of points.slice(1)) {
      expect(q.timeLead).toBeGreaterThan(0.1);
      expect(q.timeLead).toBeLessThan(0.35);
    }
  }, 120_000);
});
