import { describe, expect, it } from 'vitest';
import { openPoiseuilleChannel } from './openCases';

/**
 * The pressure outlet's refill under backflow (docs/decisions/sph-outlet-buffer-fill.md, "The refill guard"): a
 * buffer particle drawn back across the plane becomes fluid and leaves its copy one buffer length downstream, unless a
 * buffer particle lies within 0.8 dp of that place. At 0.5 dp the refill crowded the buffer under the long backflow of
 * a ventricle's filling and the run broke down (patient ventricle at dp 3 mm); the long runs are
 * packages/scenarios/scripts/moving-wall-patient.ts.
 */
describe('pressure outlet: the refill under backflow', () => {
  const dp = 0.1;
  const length = 1;

  /**
   * A 2D channel at rest (outlet plane x = 1, buffer to 1 + 4 dp): the buffer's last column moved to `lastColumn` dp
   * past the plane, its first column (0.5 dp) drawn back to just before the plane. One step; the mass refilled and
   * drawn back.
   */
  function drawBack(lastColumn: number): { refilled: number; drawnBack: number } {
    const { open } = openPoiseuilleChannel({
      radius: 0.5,
      length,
      dp,
      rho0: 1,
      mu: 0.1,
      meanVelocity: 1,
      flowRate: 0,
    });
    const f = open.sim.fluid;
    let drawnBack = 0;
    let moved = 0;
    for (let i = 0; i < f.count; i++) {
      if (open.isInterior(i) || open.isEmitter(i) || open.isReturned(i)) continue;
      const s = (f.x[i]! - length) / dp;
      if (Math.abs(s - 0.5) < 1e-9) {
        f.x[i] = length - 1e-3 * dp;
        drawnBack += f.mass[i]!;
      } else if (Math.abs(s - 3.5) < 1e-9) {
        f.x[i] = length + lastColumn * dp;
        moved++;
      }
    }
    expect(moved).toBe(10);
    open.step(Infinity);
    return { refilled: open.history[0]!.refilled, drawnBack };
  }

  it('leaves the copy where no buffer particle lies within 0.8 dp of its place', () => {
    // The copies land at 4 dp − 0.001 dp: 0.899 dp from a last column at 3.1 dp.
    const { refilled, drawnBack } = drawBack(3.1);
    expect(drawnBack).toBeGreaterThan(0);
    expect(refilled).toBeCloseTo(drawnBack, 12);
  });

  it('makes no copy within 0.8 dp of a buffer particle (0.749 dp from a last column at 3.25 dp)', () => {
    expect(drawBack(3.25).refilled).toBe(0);
  });
});
