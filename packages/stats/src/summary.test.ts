import { describe, expect, it } from 'vitest';
import { summarise } from './summary';
import { expectClose, reference } from '../test/reference';

describe('summarise (numpy/scipy reference)', () => {
  const ref = reference();
  ref.population.columns.forEach((values, j) => {
    it(`parameter ${j} matches numpy and scipy.stats.skew(bias=False) to 1e-9`, () => {
      const s = summarise(Float64Array.from(values));
      const e = ref.summary[j];
      if (!e) throw new Error('missing reference');
      expect(s.n).toBe(e.n);
      for (const key of ['mean', 'sd', 'min', 'max', 'median', 'q1', 'q3', 'skewness'] as const)
        expectClose(s[key], e[key], 1e-9, key);
    });
  });

  it('ignores missing (non-finite) values', () => {
    const s = summarise([1, Number.NaN, 2, 3, Number.POSITIVE_INFINITY]);
    expect(s.n).toBe(3);
    expect(s.mean).toBe(2);
    expect(s.median).toBe(2);
  });

  it('gives NaN skewness for constant or too few values', () => {
    expect(summarise([4, 4, 4, 4]).skewness).toBeNaN();
    expect(summarise([1, 2]).skewness).toBeNaN();
  });
});
