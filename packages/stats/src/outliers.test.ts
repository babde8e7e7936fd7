import { describe, expect, it } from 'vitest';
import { StatsInputError } from './errors';
import { matrixFromColumns } from './matrix';
import { mahalanobisOutliers, tukeyOutliers } from './outliers';
import { expectAllClose, expectClose, reference, referenceMatrix } from '../test/reference';

describe('outliers (numpy/scipy reference)', () => {
  const ref = reference();

  it('Tukey fences match numpy quartiles and flag the same values', () => {
    ref.population.columns.forEach((values, j) => {
      const t = tukeyOutliers(Float64Array.from(values));
      const e = ref.tukey[j];
      if (!e) throw new Error('missing reference');
      for (const key of ['q1', 'q3', 'lower', 'upper'] as const) expectClose(t[key], e[key], 1e-9, `${j} ${key}`);
      expect(t.indices).toEqual(e.indices);
    });
    expect(tukeyOutliers(Float64Array.from(ref.population.columns[3] ?? [])).indices).toContain(7);
  });

  it('Tukey multiplier is settable', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 20];
    expect(tukeyOutliers(values).indices).toEqual([9]);
    expect(tukeyOutliers(values, 3).indices).toEqual([]);
  });

  it('squared Mahalanobis distances and χ² cut-offs match numpy/scipy', () => {
    for (const [alpha, e] of Object.entries(ref.mahalanobis.alphas)) {
      const result = mahalanobisOutliers(referenceMatrix(), Number(alpha));
      expectAllClose(result.distances, ref.mahalanobis.distances, 1e-9, 'D²');
      expectClose(result.threshold, e.threshold, 1e-9, 'threshold');
      expect(result.indices).toEqual(e.indices);
      expect(result.degreesOfFreedom).toBe(6);
    }
    expect(mahalanobisOutliers(referenceMatrix()).indices[0]).toBe(42);
  });

  it('refuses a singular covariance or too few patients', () => {
    const a = Float64Array.from([1, 2, 3, 4, 5]);
    expect(() => mahalanobisOutliers(matrixFromColumns([a, a.map((v) => 2 * v)]))).toThrow(StatsInputError);
    expect(() => mahalanobisOutliers(matrixFromColumns([a, a, a, a, a]))).toThrow(/more patients than parameters/);
    expect(() => mahalanobisOutliers(matrixFromColumns([a]), 1)).toThrow(/Alpha/);
  });
});
