// Test-only: loads the numpy/scipy fixtures written by tools/stats-reference/reference.py.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { matrixFromColumns, type PopulationMatrix } from '../src/matrix';

interface Proportion {
  count: number;
  n: number;
  fraction: number;
  lower: number;
  upper: number;
}

interface ExtremeReference {
  cases: { row: number; cluster: number; clusterSize: number; distance: number }[];
  components: number;
  explainedVariance: number;
  assignments: number[];
  iterations: number;
}

/** Shape of packages/stats/test/fixtures/reference.json. */
export interface Reference {
  versions: { python: string; numpy: string; scipy: string };
  population: { rows: number; cols: number; columns: number[][] };
  summary: {
    n: number;
    mean: number;
    sd: number;
    min: number;
    max: number;
    median: number;
    q1: number;
    q3: number;
    skewness: number;
  }[];
  percentiles: {
    requested: number[];
    raw: number[][];
    small: Record<string, { values: number[]; method: 'raw' | 'normal'; percentiles: number[] }>;
  };
  density: { rule: 'scott' | 'silverman'; points: number; bandwidth: number; x: number[]; density: number[] }[][];
  ranks: number[][];
  pearson: { r: number[]; p: number[] };
  spearman: { r: number[]; p: number[] };
  pvalueCases: { n: number; r: number; p: number }[];
  tukey: { q1: number; q3: number; lower: number; upper: number; indices: number[] }[];
  mahalanobis: { distances: number[]; alphas: Record<string, { threshold: number; indices: number[] }> };
  extremeCases: Record<string, ExtremeReference>;
  coverage: {
    sizes: { name: string; ranges: { parameter: number; min: number; max: number }[] }[];
    perSize: (Proportion & { name: string })[];
    union: Proportion;
  };
  wilson: (Proportion & { confidence: number })[];
}

let cached: Reference | undefined;

/** The parsed fixture file (read once). */
export function reference(): Reference {
  cached ??= JSON.parse(
    readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8'),
    (_key, value: unknown) =>
      value === 'NaN'
        ? Number.NaN
        : value === 'Infinity'
          ? Number.POSITIVE_INFINITY
          : value === '-Infinity'
            ? Number.NEGATIVE_INFINITY
            : value,
  ) as Reference;
  return cached;
}

/** The fixture population as a matrix. */
export function referenceMatrix(): PopulationMatrix {
  return matrixFromColumns(reference().population.columns.map((c) => Float64Array.from(c)));
}

/** Asserts |actual − expected| ≤ rel·|expected| (exact equality for 0, both NaN accepted). */
export function expectClose(actual: number | undefined, expected: number | undefined, rel: number, label = ''): void {
  if (actual === undefined || expected === undefined) throw new Error(`missing value ${label}`);
  if (Number.isNaN(expected)) {
    expect(actual, label).toBeNaN();
    return;
  }
  if (!Number.isFinite(expected)) {
    expect(actual, label).toBe(expected);
    return;
  }
  const err = Math.abs(actual - expected);
  if (!(err <= rel * Math.abs(expected))) {
    expect.fail(`${label}: ${actual} vs ${expected} (relative error ${err / Math.abs(expected)} > ${rel})`);
  }
}

/** {@link expectClose} element-wise. */
export function expectAllClose(actual: ArrayLike<number>, expected: ArrayLike<number>, rel: number, label = ''): void {
  expect(actual.length, `${label} length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expectClose(actual[i], expected[i], rel, `${label}[${i}]`);
}
