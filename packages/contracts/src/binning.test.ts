import { describe, expect, it } from 'vitest';
import {
  binRangeLabel,
  clampBinCount,
  clampBinSize,
  heatmap,
  histogram,
  histogramOfOwnRange,
  layoutFromBinCount,
  layoutFromBinSize,
  valueRange,
  type BinLayout,
} from './binning';

/** The reference: one value at a time, Math.floor, the last bin closed. */
function plainHistogram(values: ArrayLike<number>, layout: BinLayout): number[] {
  const counts: number[] = Array.from({ length: layout.count }, () => 0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v) || v < layout.min || v > layout.max) continue;
    const k = Math.min(Math.floor((v - layout.min) / layout.binSize), layout.count - 1);
    counts[k]! += 1;
  }
  return counts;
}

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('bin size (spec §5)', () => {
  it('clamps above 999 to 999', () => {
    expect(clampBinSize(5000, 0, 1000)).toBe(999);
  });
  it('lets the (max − min) / 999 minimum win over 999, so there are never more than 999 bins', () => {
    expect(clampBinSize(5000, 0, 999_000)).toBe(1000);
  });
  it('clamps below (max − min) / 999 up to that minimum', () => {
    expect(clampBinSize(0.5, 0, 9990)).toBe(10);
    expect(clampBinSize(-3, 0, 9990)).toBe(10);
  });
  it('never goes below 1e-10', () => {
    expect(clampBinSize(1e-14, 0, 0)).toBe(1e-10);
    expect(clampBinSize(1e-14, 1, 1 + 1e-9)).toBe(1e-10);
  });
  it('ignores empty or zero', () => {
    expect(clampBinSize(null, 0, 10)).toBeNull();
    expect(clampBinSize(undefined, 0, 10)).toBeNull();
    expect(clampBinSize(0, 0, 10)).toBeNull();
    expect(clampBinSize(Number.NaN, 0, 10)).toBeNull();
  });
  it('keeps a valid size', () => {
    expect(clampBinSize(0.25, 0, 10)).toBe(0.25);
  });
});

describe('amount of bins (spec §5)', () => {
  it('is clamped between 1 and 999', () => {
    expect(clampBinCount(0)).toBe(1);
    expect(clampBinCount(-3)).toBe(1);
    expect(clampBinCount(1000)).toBe(999);
    expect(clampBinCount(20.7)).toBe(20);
  });
  it('lays equal bins over the range', () => {
    expect(layoutFromBinCount(0, 10, 4)).toEqual({ min: 0, max: 10, binSize: 2.5, count: 4 });
    expect(layoutFromBinSize(0, 10, 3)).toEqual({ min: 0, max: 10, binSize: 3, count: 4 });
    expect(layoutFromBinSize(0, 1e6, 1).count).toBe(999);
  });
});

describe('histogram', () => {
  it('counts half-open bins with the last one closed', () => {
    const layout = layoutFromBinCount(0, 4, 4);
    expect([...histogram(Float64Array.from([0, 0.99, 1, 2.5, 3, 4, 4.01, -0.01, Number.NaN]), layout)]).toEqual([
      2, 1, 1, 2,
    ]);
  });

  it('matches a plain loop on random Float32 and Float64 data', () => {
    const random = seeded(16);
    for (const values of [
      Float32Array.from({ length: 50_000 }, () => (random() - 0.3) * 17),
      Float64Array.from({ length: 50_000 }, () => (random() - 0.3) * 17),
    ]) {
      const { min, max } = valueRange([values]);
      for (const layout of [
        layoutFromBinCount(min, max, 999),
        layoutFromBinCount(min, max, 7),
        layoutFromBinSize(min, max, 0.37),
      ]) {
        expect([...histogram(values, layout)]).toEqual(plainHistogram(values, layout));
      }
    }
  });

  it('finds the range of finite values and counts the others', () => {
    expect(valueRange([Float64Array.from([3, Number.NaN, -2, Infinity]), Float64Array.from([7, -Infinity])])).toEqual({
      min: -2,
      max: 7,
      nonFinite: 3,
    });
    expect(valueRange([new Float32Array(0)])).toEqual({ min: 0, max: 0, nonFinite: 0 });
  });

  it('counts values over their own range like the checked histogram, NaN and ±Infinity left out', () => {
    const random = seeded(7);
    const values = Float32Array.from({ length: 20_000 }, (_, i) =>
      i % 997 === 0 ? Number.NaN : i % 1999 === 0 ? -Infinity : i % 2999 === 0 ? Infinity : random() * 9 - 4,
    );
    values[5] = 5; // a value exactly at max
    const { min, max, nonFinite } = valueRange([values]);
    expect(max).toBe(5);
    for (const layout of [
      layoutFromBinCount(min, max, 999),
      layoutFromBinCount(min, max, 3),
      layoutFromBinSize(min, max, 0.7),
    ]) {
      expect([...histogramOfOwnRange(values, layout, nonFinite)]).toEqual(plainHistogram(values, layout));
    }
  });
});

describe('heatmap', () => {
  it('holds one histogram per timestep of the range, both ends included', () => {
    const columns = [Float64Array.from([0, 1]), Float64Array.from([2, 2, 0]), Float64Array.from([1])];
    const layout = layoutFromBinCount(0, 2, 2);
    const rows = heatmap(columns, 1, 2, layout);
    expect(rows.map((row) => [...row])).toEqual([
      [1, 2],
      [0, 1],
    ]);
  });
});

describe('tooltip bin ranges (spec §9)', () => {
  it('are half-open, the last closed', () => {
    const layout = layoutFromBinCount(0, 1, 4);
    expect(binRangeLabel(0, layout)).toBe('[0, 0.25)');
    expect(binRangeLabel(2, layout)).toBe('[0.5, 0.75)');
    expect(binRangeLabel(3, layout)).toBe('[0.75, 1]');
  });
  it('end the last bin at the data max', () => {
    expect(binRangeLabel(3, layoutFromBinSize(0, 10, 3))).toBe('[9, 10]');
  });
});
