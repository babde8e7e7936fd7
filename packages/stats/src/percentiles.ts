import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { ANALYSIS_DEFAULTS, RAW_PERCENTILE_MIN_VALUES } from './defaults';
import { StatsInputError } from './errors';
import { percentileOfSorted, sortedFinite } from './quantile';

/** One reported percentile. */
export interface PercentileValue {
  /** The percentile asked for, in percent. */
  requested: number;
  /** The percentile used, in percent: `requested` moved into [0, 100] when out of range (spec §5). */
  percentile: number;
  /** True when `percentile` differs from `requested`. */
  adjusted: boolean;
  /** The value at that percentile, in the unit of the data (±Infinity at 0/100 with a fitted normal). */
  value: number;
}

/** Percentiles of one parameter and how they were obtained. */
export interface PercentileResult {
  /** `raw`: linear interpolation of the data (≥ 20 values); `normal`: quantiles of a fitted normal distribution. */
  method: 'raw' | 'normal';
  /** Number of finite values used. */
  n: number;
  values: PercentileValue[];
}

/**
 * Moves a percentile to the closest valid one, i.e. clamps it into [0, 100] percent (spec §5).
 * @throws StatsInputError when `p` is NaN.
 */
export function clampPercentile(p: number): number {
  if (Number.isNaN(p)) throw new StatsInputError('A percentile must be a number between 0 and 100.');
  return Math.min(100, Math.max(0, p));
}

/**
 * Percentiles (in percent, default 5/50/95) of one parameter (spec §9): with 20 or more finite values,
 * from the data by linear interpolation (numpy's default, `numpy.percentile`); with fewer, from a
 * normal distribution fitted by the sample mean and sample SD (ddof 1), i.e.
 * `scipy.stats.norm.ppf(p/100, mean, sd)` with the normal quantile of @stdlib.
 * Out-of-range percentiles are moved to the closest valid one (spec §5). Values in the data's unit.
 */
export function percentiles(
  values: ArrayLike<number>,
  requested: readonly number[] = ANALYSIS_DEFAULTS.percentiles,
): PercentileResult {
  return percentilesOfSorted(sortedFinite(values), requested);
}

/** {@link percentiles} for values already sorted ascending and finite. */
export function percentilesOfSorted(
  sorted: Float64Array,
  requested: readonly number[] = ANALYSIS_DEFAULTS.percentiles,
): PercentileResult {
  const n = sorted.length;
  const method = n >= RAW_PERCENTILE_MIN_VALUES ? 'raw' : 'normal';
  let mean = 0;
  let sd = 0;
  if (method === 'normal') {
    for (let i = 0; i < n; i++) mean += sorted[i] ?? 0;
    mean /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += ((sorted[i] ?? 0) - mean) ** 2;
    sd = n > 1 ? Math.sqrt(ss / (n - 1)) : Number.NaN;
  }
  const values = requested.map((req): PercentileValue => {
    const percentile = clampPercentile(req);
    const value =
      method === 'raw'
        ? percentileOfSorted(sorted, percentile)
        : n === 0
          ? Number.NaN
          : normalQuantile(percentile / 100, mean, sd);
    return { requested: req, percentile, adjusted: percentile !== req, value };
  });
  return { method, n, values };
}
