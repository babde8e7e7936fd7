import { describe, expect, it } from 'vitest';
import { deviceCoverage, proposeSizeSet, proposeSizingWindow, sizingDisagreement, wilsonInterval } from './coverage';
import { StatsInputError } from './errors';
import { expectClose, reference, referenceMatrix } from '../test/reference';

describe('coverage', () => {
  const ref = reference();

  it('Wilson intervals match the reference formula with scipy.stats.norm.ppf', () => {
    for (const e of ref.wilson) {
      const w = wilsonInterval(e.count, e.n, e.confidence);
      expect(w.count).toBe(e.count);
      for (const key of ['fraction', 'lower', 'upper'] as const) {
        if (e[key] === 0) expect(Math.abs(w[key])).toBeLessThan(1e-15);
        else expectClose(w[key], e[key], 1e-9, `${e.count}/${e.n} ${key}`);
      }
    }
  });

  it('counts patients inside each size (all ranges, bounds inclusive) and inside the union', () => {
    const result = deviceCoverage(referenceMatrix(), ref.coverage.sizes);
    result.sizes.forEach((s, i) => {
      const e = ref.coverage.perSize[i];
      if (!e) throw new Error('missing reference');
      expect([s.name, s.count, s.n]).toEqual([e.name, e.count, e.n]);
      expectClose(s.lower, e.lower, 1e-9, `${s.name} lower`);
      expectClose(s.upper, e.upper, 1e-9, `${s.name} upper`);
    });
    expect(result.union.count).toBe(ref.coverage.union.count);
    expectClose(result.union.upper, ref.coverage.union.upper, 1e-9, 'union upper');
  });

  it('flags patients whose area- and perimeter-based sizing pick different sizes', () => {
    // Columns: annulus area (mm²), perimeter (mm), another parameter no size uses.
    const area = [350, 350, 450, 600, 400];
    const perimeter = [65, 75, 75, 75, 70];
    const data = Float64Array.from([...area, ...perimeter, 1, 2, 3, 4, 5]);
    const matrix = { rows: 5, cols: 3, data };
    const sizes = [
      {
        name: '23 mm',
        ranges: [
          { parameter: 0, min: 300, max: 400 },
          { parameter: 1, min: 60, max: 70 },
        ],
      },
      {
        name: '26 mm',
        ranges: [
          { parameter: 1, min: 70, max: 80 },
          { parameter: 0, min: 400, max: 500 },
        ],
      },
    ];
    // 1: both 23; 2: area 23, perimeter 26 (disagree); 3: both 26; 4: area out of every range (not sized, not
    // counted); 5: on the shared bounds, both methods pick both sizes (agree).
    const flag = sizingDisagreement(matrix, sizes)!;
    expect(flag).toMatchObject({ parameters: [0, 1], rows: [1], count: 1, n: 5 });
    expectClose(flag.fraction, 0.2, 1e-15, 'fraction');
    expect(deviceCoverage(matrix, sizes).disagreement).toEqual(flag);
    // One parameter: nothing to disagree.
    expect(sizingDisagreement(matrix, [{ name: '23 mm', ranges: [{ parameter: 0, min: 300, max: 400 }] }])).toBeNull();
  });

  it('refuses malformed sizes and proportions', () => {
    expect(() =>
      deviceCoverage(referenceMatrix(), [{ name: 'X', ranges: [{ parameter: 9, min: 0, max: 1 }] }]),
    ).toThrow(StatsInputError);
    expect(() =>
      deviceCoverage(referenceMatrix(), [{ name: 'X', ranges: [{ parameter: 0, min: 2, max: 1 }] }]),
    ).toThrow(StatsInputError);
    expect(() => wilsonInterval(3, 2)).toThrow(StatsInputError);
  });

  it('widens a sizing window from the seed percentile to the narrowest one holding the target coverage', () => {
    const values = Float64Array.from(ref.population.columns[0] ?? []);
    const sorted = Float64Array.from(values).sort();
    for (const [seedPercentile, targetCoveragePercent] of [
      [50, 50],
      [20, 30],
      [90, 75],
      [0, 10],
      [100, 100],
    ] as const) {
      const w = proposeSizingWindow(values, { seedPercentile, targetCoveragePercent });
      const inside = sorted.filter((v) => v >= w.min && v <= w.max).length;
      expect(w.coverage.count).toBe(inside);
      expect(inside / sorted.length).toBeGreaterThanOrEqual(targetCoveragePercent / 100);
      expect(w.min).toBeLessThanOrEqual(w.seedValue);
      expect(w.max).toBeGreaterThanOrEqual(w.seedValue);
      // Narrowest: no window of patient values containing the seed and holding the target is narrower.
      const needed = Math.ceil((targetCoveragePercent / 100) * sorted.length);
      for (let i = 0; i + needed - 1 < sorted.length; i++) {
        const lo = sorted[i] ?? 0;
        const hi = sorted[i + needed - 1] ?? 0;
        if (lo <= w.seedValue && hi >= w.seedValue) expect(hi - lo).toBeGreaterThanOrEqual(w.max - w.min);
      }
    }
    const defaults = proposeSizingWindow([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(defaults.seedValue).toBe(5.5);
    expect(defaults.coverage.count).toBe(5);
    expect([defaults.min, defaults.max]).toEqual([3, 7]);
  });

  it('proposes the fewest windows of a width reaching the target, checked by brute force', () => {
    const values = [1, 1.5, 2, 5, 5.2, 5.4, 5.6, 9, 12, 12.5, 20, 21, 21.5, 22];
    const width = 2;
    // Brute force: best coverage with k windows starting at data values.
    const starts = [...new Set(values)];
    const bestWith = (k: number): number => {
      let best = 0;
      const rec = (from: number, left: number, chosen: number[]): void => {
        if (left === 0 || from === starts.length) {
          best = Math.max(best, values.filter((v) => chosen.some((s) => v >= s && v <= s + width)).length);
          return;
        }
        rec(from + 1, left - 1, [...chosen, starts[from] ?? 0]);
        rec(from + 1, left, chosen);
      };
      rec(0, k, []);
      return best;
    };
    for (const target of [10, 50, 75, 90, 100]) {
      const result = proposeSizeSet(values, width, { targetCoveragePercent: target });
      const needed = Math.ceil((target / 100) * values.length);
      expect(result.reached).toBe(true);
      expect(result.coverage.count).toBeGreaterThanOrEqual(needed);
      const k = result.windows.length;
      expect(bestWith(k)).toBeGreaterThanOrEqual(needed);
      if (k > 1) expect(bestWith(k - 1)).toBeLessThan(needed);
      const counted = values.filter((v) => result.windows.some((w) => v >= w.min && v <= w.max)).length;
      expect(counted).toBe(result.coverage.count);
    }
  });

  it('reports when the size limit cannot reach the target', () => {
    const result = proposeSizeSet([1, 10, 20, 30], 1, { targetCoveragePercent: 100, maxSizes: 2 });
    expect(result.reached).toBe(false);
    expect(result.windows.length).toBe(2);
  });
});
