import { describe, expect, it } from 'vitest';
import { clampPercentile, percentiles } from './percentiles';
import { expectAllClose, reference } from '../test/reference';

describe('percentiles', () => {
  const ref = reference();
  const requested = ref.percentiles.requested;

  it('uses numpy linear interpolation on 20 or more values, clamping out-of-range requests', () => {
    ref.population.columns.forEach((values, j) => {
      const result = percentiles(Float64Array.from(values), requested);
      expect(result.method).toBe('raw');
      expectAllClose(
        result.values.map((v) => v.value),
        ref.percentiles.raw[j] ?? [],
        1e-9,
        `parameter ${j}`,
      );
    });
  });

  for (const [m, small] of Object.entries(reference().percentiles.small)) {
    it(`uses ${small.method === 'raw' ? 'the raw data' : 'a fitted normal (scipy.stats.norm.ppf)'} with ${m} values`, () => {
      const result = percentiles(small.values, requested);
      expect(result.method).toBe(small.method);
      expectAllClose(
        result.values.map((v) => v.value),
        small.percentiles,
        1e-9,
        `n=${m}`,
      );
    });
  }

  it('defaults to 5/50/95 and reports adjusted percentiles', () => {
    const values = Array.from({ length: 21 }, (_, i) => i);
    expect(percentiles(values).values.map((v) => [v.percentile, v.value])).toEqual([
      [5, 1],
      [50, 10],
      [95, 19],
    ]);
    const [low, high] = percentiles(values, [-3, 104]).values;
    expect(low).toMatchObject({ requested: -3, percentile: 0, adjusted: true, value: 0 });
    expect(high).toMatchObject({ requested: 104, percentile: 100, adjusted: true, value: 20 });
  });

  it('moves an out-of-range percentile to the closest valid one and refuses NaN', () => {
    expect(clampPercentile(-1)).toBe(0);
    expect(clampPercentile(101)).toBe(100);
    expect(clampPercentile(42.5)).toBe(42.5);
    expect(() => clampPercentile(Number.NaN)).toThrow(/between 0 and 100/);
  });
});
