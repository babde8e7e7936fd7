import { percentileOfSorted, sortedFinite } from './quantile';

/** Descriptive statistics of one parameter, in the parameter's own unit (skewness dimensionless). */
export interface ParameterSummary {
  /** Number of finite values used. */
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1 denominator). */
  sd: number;
  min: number;
  max: number;
  median: number;
  /** First quartile (25th percentile, linear interpolation). */
  q1: number;
  /** Third quartile (75th percentile, linear interpolation). */
  q3: number;
  /** Adjusted Fisher–Pearson sample skewness G1; NaN when n < 3 or the values are constant. */
  skewness: number;
}

/**
 * Summary of one parameter: n, mean, sample SD (ddof 1), min, max, median and quartiles
 * (numpy's linear percentiles) and the adjusted Fisher–Pearson skewness
 * G1 = g1·√(n(n−1))/(n−2) with g1 = m3/m2^1.5 — `scipy.stats.skew(x, bias=False)`, as in Excel's SKEW.
 * Non-finite values are ignored. Units: those of the values.
 */
export function summarise(values: ArrayLike<number>): ParameterSummary {
  return summariseSorted(sortedFinite(values));
}

/** {@link summarise} for values already sorted ascending and finite (avoids a second sort). */
export function summariseSorted(sorted: Float64Array): ParameterSummary {
  const n = sorted.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i] ?? 0;
  const mean = n > 0 ? sum / n : Number.NaN;
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < n; i++) {
    const d = (sorted[i] ?? 0) - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
  }
  const sd = n > 1 ? Math.sqrt(m2 / (n - 1)) : Number.NaN;
  m2 /= n;
  m3 /= n;
  let skewness = Number.NaN;
  const resolution = 1e-15 * mean;
  if (n >= 3 && m2 > resolution * resolution) {
    skewness = (m3 / Math.pow(m2, 1.5)) * (Math.sqrt(n * (n - 1)) / (n - 2));
  }
  return {
    n,
    mean,
    sd,
    min: n > 0 ? (sorted[0] ?? Number.NaN) : Number.NaN,
    max: n > 0 ? (sorted[n - 1] ?? Number.NaN) : Number.NaN,
    median: percentileOfSorted(sorted, 50),
    q1: percentileOfSorted(sorted, 25),
    q3: percentileOfSorted(sorted, 75),
    skewness,
  };
}
