import { describe, expect, it } from 'vitest';
import { analysePopulation } from './analysis';
import { InsufficientPatientsError, StatsInputError, assertEnoughPatients } from './errors';
import { column, matrixFromColumns, matrixFromRows, withoutRows } from './matrix';
import { expectAllClose, reference, referenceMatrix } from '../test/reference';

describe('analysePopulation', () => {
  const ref = reference();

  it('runs every part with the spec defaults and agrees with the numpy/scipy fixtures', () => {
    const result = analysePopulation(referenceMatrix(), {
      sizes: ref.coverage.sizes,
      sizing: { parameter: 0 },
    });
    expect(result.patients).toBe(200);
    expect(result.parameters).toHaveLength(6);
    expect(result.parameters[0]?.percentiles.values.map((v) => v.percentile)).toEqual([5, 50, 95]);
    expect(result.parameters[0]?.density?.rule).toBe('scott');
    expectAllClose(result.pearson.r, ref.pearson.r, 1e-9, 'pearson r');
    expectAllClose(result.pearson.p, ref.pearson.p, 1e-8, 'pearson p');
    expectAllClose(result.spearman.p, ref.spearman.p, 1e-8, 'spearman p');
    expectAllClose(result.mahalanobis?.distances ?? [], ref.mahalanobis.distances, 1e-9, 'D²');
    expect(result.mahalanobis?.indices).toEqual(ref.mahalanobis.alphas['0.001']?.indices);
    expect(result.flaggedPearson.map((f) => [f.a, f.b])).toContainEqual([0, 1]);
    expect(result.extremeCases.cases.map((c) => c.row)).toEqual(ref.extremeCases['1-5-0.9']?.cases.map((c) => c.row));
    expect(result.coverage?.union.count).toBe(ref.coverage.union.count);
    expect(result.sizing?.coverage.fraction).toBeGreaterThanOrEqual(0.5);
  });

  it('changes when the top outlier is excluded', () => {
    const full = analysePopulation(referenceMatrix());
    const top = full.mahalanobis?.indices[0] ?? -1;
    const reduced = analysePopulation(withoutRows(referenceMatrix(), new Set([top])));
    expect(reduced.patients).toBe(199);
    expect(reduced.parameters[0]?.summary.mean).not.toBe(full.parameters[0]?.summary.mean);
  });

  it('refuses fewer than 20 patients with the spec message', () => {
    const m = matrixFromRows(Array.from({ length: 19 }, (_, i) => [i, i * i]));
    expect(() => analysePopulation(m)).toThrow(InsufficientPatientsError);
    expect(() => analysePopulation(m)).toThrow('Statistical analysis needs at least 20 patients.');
    expect(() => assertEnoughPatients(20)).not.toThrow();
    try {
      assertEnoughPatients(3);
    } catch (error) {
      expect(error).toMatchObject({ code: 'insufficient_patients', patients: 3, minimum: 20 });
    }
  });

  it('accepts settings and survives a collinear parameter', () => {
    const x = Float64Array.from({ length: 25 }, (_, i) => i + (i % 3));
    const m = matrixFromColumns([x, x.map((v) => 2 * v + 1), x.map((v, i) => v * ((i % 4) + 1))]);
    const result = analysePopulation(m, {
      percentiles: [10, 200],
      correlationThreshold: 0.99,
      alpha: 0.05,
      bandwidth: 'silverman',
      extremeCases: 2,
    });
    expect(result.mahalanobis).toBeNull();
    expect(result.flaggedPearson.map((f) => [f.a, f.b])).toEqual([[0, 1]]);
    expect(result.parameters[0]?.percentiles.values[1]?.percentile).toBe(100);
    expect(result.extremeCases.cases.length).toBe(2);
    expect(() => analysePopulation(m, { sizing: { parameter: 5 } })).toThrow(StatsInputError);
  });

  it('copes with constant parameters: no density, NaN correlations, no Mahalanobis, extremes from the rest', () => {
    const x = Float64Array.from({ length: 30 }, (_, i) => (i * 7) % 11);
    const constant = new Float64Array(30).fill(3);
    const result = analysePopulation(matrixFromColumns([x, constant]));
    expect(result.parameters[0]?.density).not.toBeNull();
    expect(result.parameters[1]?.density).toBeNull();
    expect(result.pearson.r[1]).toBeNaN();
    expect(result.mahalanobis).toBeNull();
    expect(result.extremeCases.cases.length).toBeGreaterThan(0);
    const allConstant = analysePopulation(matrixFromColumns([constant, constant]));
    expect(allConstant.extremeCases.cases).toEqual([]);
    expect(allConstant.parameters[0]?.summary.mean).toBe(3);
  });

  it('selects patients by row with column and withoutRows', () => {
    const m = matrixFromRows([
      [1, 10],
      [2, 20],
      [3, 30],
    ]);
    expect(Array.from(column(m, 1))).toEqual([10, 20, 30]);
    const kept = withoutRows(m, new Set([1]));
    expect([kept.rows, kept.cols]).toEqual([2, 2]);
    expect(Array.from(kept.data)).toEqual([1, 3, 10, 30]);
    expect(() => column(m, 2)).toThrow(StatsInputError);
  });

  it('refuses non-finite values and ragged input', () => {
    expect(() => matrixFromRows([[1, Number.NaN]])).toThrow(StatsInputError);
    expect(() => matrixFromRows([[1, 2], [3]])).toThrow(StatsInputError);
    expect(() => matrixFromColumns([new Float64Array(2), new Float64Array(3)])).toThrow(StatsInputError);
  });
});
