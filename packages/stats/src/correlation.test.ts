import { describe, expect, it } from 'vitest';
import { averageRanks, correlationPValue, flagCorrelatedPairs, pearsonMatrix, spearmanMatrix } from './correlation';
import { matrixFromColumns } from './matrix';
import { expectAllClose, expectClose, reference, referenceMatrix } from '../test/reference';

describe('correlation matrices (numpy/scipy reference)', () => {
  const ref = reference();
  const matrix = referenceMatrix();

  it('ranks with averaged ties like scipy.stats.rankdata', () => {
    ref.population.columns.forEach((values, j) =>
      expectAllClose(averageRanks(values), ref.ranks[j] ?? [], 0, `ranks ${j}`),
    );
  });

  it('Pearson r matches numpy.corrcoef to 1e-9 and p scipy.stats.pearsonr to 1e-8', () => {
    const result = pearsonMatrix(matrix);
    expectAllClose(result.r, ref.pearson.r, 1e-9, 'r');
    expectAllClose(result.p, ref.pearson.p, 1e-8, 'p');
  });

  it('Spearman r and p match scipy.stats.spearmanr', () => {
    const result = spearmanMatrix(matrix);
    expectAllClose(result.r, ref.spearman.r, 1e-9, 'r');
    expectAllClose(result.p, ref.spearman.p, 1e-8, 'p');
  });

  it('p-values match scipy.stats.pearsonr far into the tail and for small n', () => {
    for (const c of ref.pvalueCases) expectClose(correlationPValue(c.r, c.n), c.p, 1e-8, `n=${c.n} r=${c.r}`);
  });

  it('flags pairs with |r| ≥ 0.9 and p < 0.001 by default, and both are settable', () => {
    const pearson = pearsonMatrix(matrix);
    const flagged = flagCorrelatedPairs(pearson);
    expect(flagged.map((f) => [f.a, f.b])).toContainEqual([0, 1]);
    for (const f of flagged) {
      expect(Math.abs(f.r)).toBeGreaterThanOrEqual(0.9);
      expect(f.p).toBeLessThan(0.001);
    }
    expect(flagCorrelatedPairs(pearson, { threshold: 0.999 })).toEqual([]);
    expect(flagCorrelatedPairs(pearson, { threshold: 0.5, alpha: 0 })).toEqual([]);
    expect(flagCorrelatedPairs(pearson, { threshold: 0.5 }).length).toBeGreaterThan(flagged.length);
  });

  it('gives NaN for a constant parameter instead of a number', () => {
    const m = matrixFromColumns([Float64Array.from([1, 2, 3, 4]), Float64Array.from([5, 5, 5, 5])]);
    const r = pearsonMatrix(m);
    expect(r.r[1]).toBeNaN();
    expect(r.p[1]).toBeNaN();
    expect(r.r[0]).toBe(1);
  });

  it('gives p = 0 for a perfect correlation', () => {
    expect(correlationPValue(1, 10)).toBe(0);
    expect(correlationPValue(-1, 10)).toBe(0);
    expect(correlationPValue(0, 10)).toBe(1);
  });
});
