import { enclosedVolume_mm3 } from '@insilico/mesh';
import { openVessel } from '@insilico/sph';
import { describe, expect, it } from 'vitest';
import { RHO, outletCrossings, patientLv, volumeBehindPlane } from '../test/patientLv';

// The SPH engine's moving vessel wall (packages/sph, docs/decisions/sph-moving-walls.md) on a patient's real cine
// frames: the left ventricle of the default population's first patient over a whole heart cycle at 70 bpm, the 12
// systolic frames over the ejection time and back over the filling time, blood out of and back into one pressure
// outlet below the base plane (test/patientLv.ts). Coarse: dp = 4 mm (about 2,000 fluid particles).

const DP = 4e-3;

describe("moving vessel wall on a patient's left ventricle over a heart cycle", () => {
  it('the reference volume: the whole blood pool below a plane beyond it, and a plane through its middle', () => {
    const lv = patientLv();
    const ed = lv.systole[0]!;
    const whole = enclosedVolume_mm3(ed);
    const far = lv.centreAt(-1);
    expect(volumeBehindPlane(ed, far, lv.normal) / whole).toBeCloseTo(1, 9);
    // The two sides of a plane 20 mm below the base add up to the whole.
    const mid = lv.centreAt(0.004);
    const flipped = [-lv.normal[0], -lv.normal[1], -lv.normal[2]] as const;
    const below = volumeBehindPlane(ed, mid, lv.normal);
    expect(below).toBeGreaterThan(0.3 * whole);
    expect((below + volumeBehindPlane(ed, mid, flipped)) / whole).toBeCloseTo(1, 9);
  });

  it('mass balance: the volume out of the outlet equals the lumen volume lost before it, through ejection and filling (5 % of the stroke volume)', () => {
    const lv = patientLv();
    const { systole, ejection, period } = lv;
    const options = lv.options(DP, 20);
    const open = openVessel(systole[0]!, options);
    expect(open.sim.options.movingWall).toBe(true);
    const before = (k: number): number => lv.volumeBeforeOutlet(systole[k]!, DP) * 1e-9;
    const stroke = before(0) - before(systole.length - 1);
    expect(stroke).toBeGreaterThan(0);
    const outflow = (): number => outletCrossings(open, options.outlets[0]!) / RHO;
    const last = systole.length - 1;
    // At frame times, where the wall is at a frame mesh: mid-ejection, end-systole, mid-filling, end-diastole again.
    const checks: [number, number][] = [
      [(6 * ejection) / last, before(0) - before(6)],
      [ejection, stroke],
      [ejection + (5 * (period - ejection)) / last, before(0) - before(6)],
      [period, 0],
    ];
    for (const [time, lost] of checks) {
      open.run(time);
      expect(open.sim.counters.time).toBeCloseTo(time, 12);
      expect(Math.abs(outflow() - lost) / stroke).toBeLessThan(0.05);
    }
  }, 120_000);
});
