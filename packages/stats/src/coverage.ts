import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { ANALYSIS_DEFAULTS } from './defaults';
import { StatsInputError } from './errors';
import type { PopulationMatrix } from './matrix';
import { percentileOfSorted, sortedFinite } from './quantile';

/** A closed range [min, max] on one parameter, in that parameter's unit (e.g. annulus perimeter 66–80 mm). */
export interface ParameterRange {
  /** Parameter (column) index. */
  parameter: number;
  min: number;
  max: number;
}

/** One device size: a patient fits when every one of its ranges contains the patient's value. */
export interface SizeWindow {
  name: string;
  ranges: readonly ParameterRange[];
}

/** A proportion with its confidence interval (fractions 0–1). */
export interface Proportion {
  count: number;
  n: number;
  /** count / n. */
  fraction: number;
  lower: number;
  upper: number;
}

/** Coverage of a device version's sizes. */
export interface DeviceCoverage {
  sizes: (Proportion & { name: string })[];
  /** Patients fitting at least one size. */
  union: Proportion;
  /** Confidence level of the intervals (e.g. 0.95). */
  confidence: number;
  /** Patients whose sizing parameters pick different sizes ({@link sizingDisagreement}); null: one parameter. */
  disagreement: SizingDisagreement | null;
}

/** Patients for whom each sizing parameter alone picks a size but no size fits them on every parameter. */
export interface SizingDisagreement extends Proportion {
  /** The parameters (column indices) the sizes' ranges use, ascending. */
  parameters: number[];
  /** Row indices of the disagreeing patients, ascending. */
  rows: number[];
}

/** A sizing window proposed on one parameter. */
export interface SizingProposal {
  /** Window bounds, in the parameter's unit (inclusive). */
  min: number;
  max: number;
  /** Value at the seed percentile where the window started. */
  seedValue: number;
  coverage: Proportion;
}

/** A set of windows of one width covering a target share of patients with the fewest sizes. */
export interface SizeSetProposal {
  windows: { min: number; max: number; count: number }[];
  coverage: Proportion;
  /** False when `maxSizes` windows (default 50) cannot reach the target. */
  reached: boolean;
}

/**
 * Wilson score interval of a binomial proportion (Wilson 1927; Brown, Cai & DasGupta 2001) at the given
 * confidence (default 0.95), z from the @stdlib normal quantile — `statsmodels proportion_confint(method="wilson")`.
 * Fractions 0–1.
 */
export function wilsonInterval(count: number, n: number, confidence = 0.95): Proportion {
  if (!(n > 0) || count < 0 || count > n) throw new StatsInputError('A proportion needs 0 ≤ count ≤ n and n > 0.');
  if (!(confidence > 0 && confidence < 1))
    throw new StatsInputError('The confidence level must lie strictly between 0 and 1.');
  const z = normalQuantile(1 - (1 - confidence) / 2, 0, 1);
  const p = count / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { count, n, fraction: p, lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/**
 * Device fit and population coverage: the share of patients inside each size window (all of its parameter
 * ranges, bounds inclusive) and inside the union of sizes, each with a Wilson interval (default 95 %).
 * Fractions 0–1.
 */
export function deviceCoverage(
  matrix: PopulationMatrix,
  sizes: readonly SizeWindow[],
  confidence = 0.95,
): DeviceCoverage {
  const { rows: n, data } = matrix;
  const inUnion = new Uint8Array(n);
  const inside = new Uint8Array(n);
  const result: (Proportion & { name: string })[] = [];
  for (const size of sizes) {
    for (const r of size.ranges) {
      if (!(r.parameter >= 0 && r.parameter < matrix.cols))
        throw new StatsInputError(`Size ${size.name} refers to a missing parameter.`);
      if (!(r.min <= r.max))
        throw new StatsInputError(`Size ${size.name} has a range whose minimum exceeds its maximum.`);
    }
    // One contiguous pass per range over its parameter's column.
    inside.fill(1);
    for (const r of size.ranges) {
      const off = r.parameter * n;
      const { min, max } = r;
      for (let i = 0; i < n; i++) {
        const v = data[off + i] as number;
        if (!(v >= min && v <= max)) inside[i] = 0;
      }
    }
    let count = 0;
    for (let i = 0; i < n; i++) {
      const f = inside[i] as number;
      count += f;
      inUnion[i] = (inUnion[i] as number) | f;
    }
    result.push({ name: size.name, ...wilsonInterval(count, n, confidence) });
  }
  let union = 0;
  for (let i = 0; i < n; i++) union += inUnion[i] ?? 0;
  return {
    sizes: result,
    union: wilsonInterval(union, n, confidence),
    confidence,
    disagreement: sizingDisagreement(matrix, sizes, confidence),
  };
}

/**
 * Disagreement between sizing methods (issue 23; e.g. annulus area-, perimeter- and diameter-based sizing, which
 * published CT studies found to agree in as few as 30–62 % of patients): each parameter the sizes' ranges use is
 * one method; a method picks the sizes whose range on its parameter contains the patient's value (a size without
 * a range on it does not take part). A patient disagrees when every method picks at least one size and no size is
 * picked by all of them. Patients some method cannot size at all (out of its ranges) are not counted: they fit no
 * size, which the coverage already says. Null when the sizes use fewer than two parameters. Ranges are checked by
 * {@link deviceCoverage}.
 */
export function sizingDisagreement(
  matrix: PopulationMatrix,
  sizes: readonly SizeWindow[],
  confidence = 0.95,
): SizingDisagreement | null {
  const { rows: n, data } = matrix;
  const parameters = [...new Set(sizes.flatMap((size) => size.ranges.map((r) => r.parameter)))].sort((a, b) => a - b);
  if (parameters.length < 2 || n === 0) return null;
  const disagreeing: number[] = [];
  for (let i = 0; i < n; i++) {
    // picked[s]: how many methods pick size s; every method must pick something.
    const picked = new Uint16Array(sizes.length);
    let everyMethodPicks = true;
    for (const p of parameters) {
      const v = data[p * n + i] as number;
      let any = false;
      sizes.forEach((size, s) => {
        const own = size.ranges.filter((r) => r.parameter === p);
        if (own.length > 0 && own.every((r) => v >= r.min && v <= r.max)) {
          picked[s] = (picked[s] as number) + 1;
          any = true;
        }
      });
      if (!any) {
        everyMethodPicks = false;
        break;
      }
    }
    if (everyMethodPicks && !picked.some((count) => count === parameters.length)) disagreeing.push(i);
  }
  return { ...wilsonInterval(disagreeing.length, n, confidence), parameters, rows: disagreeing };
}

/**
 * Proposes a sizing window on one parameter: starts at the value of the seed percentile (default 50, numpy
 * linear percentile) and widens to the narrowest window [vᵢ, vⱼ] of patient values that contains the seed value
 * and holds at least the target share of patients (default 50 %); among equally narrow windows, the one whose
 * centre is nearest the seed, then the lower one. Exact, O(n) after sorting. Units: those of the values.
 */
export function proposeSizingWindow(
  values: ArrayLike<number>,
  options: { seedPercentile?: number; targetCoveragePercent?: number; confidence?: number } = {},
): SizingProposal {
  const sorted = sortedFinite(values);
  const n = sorted.length;
  if (n === 0) throw new StatsInputError('A sizing window needs at least one value.');
  const seedPercentile = Math.min(100, Math.max(0, options.seedPercentile ?? ANALYSIS_DEFAULTS.seedPercentile));
  const target = Math.min(100, Math.max(0, options.targetCoveragePercent ?? ANALYSIS_DEFAULTS.targetCoveragePercent));
  const needed = Math.ceil((target / 100) * n - 1e-9);
  const seedValue = percentileOfSorted(sorted, seedPercentile);
  let min = seedValue;
  let max = seedValue;
  if (needed > 0) {
    let bestWidth = Number.POSITIVE_INFINITY;
    let bestOffset = Number.POSITIVE_INFINITY;
    for (let i = 0; i + needed - 1 < n; i++) {
      const lo = sorted[i] ?? 0;
      const hi = sorted[i + needed - 1] ?? 0;
      if (lo > seedValue) break;
      if (hi < seedValue) continue;
      const width = hi - lo;
      const offset = Math.abs((lo + hi) / 2 - seedValue);
      if (width < bestWidth || (width === bestWidth && offset < bestOffset)) {
        bestWidth = width;
        bestOffset = offset;
        min = lo;
        max = hi;
      }
    }
  }
  const count = upperBound(sorted, max) - lowerBound(sorted, min);
  return { min, max, seedValue, coverage: wilsonInterval(count, n, options.confidence) };
}

/**
 * Proposes the fewest windows of a given width (in the parameter's unit, e.g. 14 mm per valve size) that
 * together hold at least the target share of patients (default 50 %): for k = 1, 2, … the most patients k
 * windows can hold is found exactly by dynamic programming over the sorted values (a window may start at a
 * patient's value without loss), and the first k reaching the target is returned (at most `maxSizes`, default 50).
 * O(k·n) after sorting.
 */
export function proposeSizeSet(
  values: ArrayLike<number>,
  width: number,
  options: { targetCoveragePercent?: number; confidence?: number; maxSizes?: number } = {},
): SizeSetProposal {
  if (!(width >= 0) || !Number.isFinite(width))
    throw new StatsInputError('The window width must be a finite number ≥ 0.');
  const sorted = sortedFinite(values);
  const n = sorted.length;
  if (n === 0) throw new StatsInputError('A size set needs at least one value.');
  const target = Math.min(100, Math.max(0, options.targetCoveragePercent ?? ANALYSIS_DEFAULTS.targetCoveragePercent));
  const needed = Math.ceil((target / 100) * n - 1e-9);
  // next[i]: first index whose value exceeds sorted[i] + width (a window [v_i, v_i + width] holds i … next[i] − 1).
  const next = new Int32Array(n);
  for (let i = 0, e = 0; i < n; i++) {
    const end = (sorted[i] ?? 0) + width;
    if (e < i) e = i;
    while (e < n && (sorted[e] ?? 0) <= end) e++;
    next[i] = e;
  }
  // best[i] with k windows = most values among i … n − 1, built from k − 1.
  let prev = new Int32Array(n + 1);
  let cur = new Int32Array(n + 1);
  const takes: Uint8Array[] = [];
  let k = 0;
  const maxSizes = Math.min(n, options.maxSizes ?? 50);
  while ((prev[0] ?? 0) < needed && k < maxSizes) {
    k++;
    const take = new Uint8Array(n);
    cur[n] = 0;
    for (let i = n - 1; i >= 0; i--) {
      const skip = cur[i + 1] ?? 0;
      const ni = next[i] ?? n;
      const with_ = ni - i + (prev[ni] ?? 0);
      if (with_ >= skip) {
        cur[i] = with_;
        take[i] = 1;
      } else cur[i] = skip;
    }
    takes.push(take);
    [prev, cur] = [cur, prev];
  }
  // Walk back through the choices.
  const windows: { min: number; max: number; count: number }[] = [];
  let i = 0;
  for (let level = k; level >= 1 && i < n; level--) {
    const take = takes[level - 1];
    while (i < n && !(take?.[i] ?? 0)) i++;
    if (i >= n) break;
    const ni = next[i] ?? n;
    windows.push({ min: sorted[i] ?? 0, max: (sorted[i] ?? 0) + width, count: ni - i });
    i = ni;
  }
  const covered = windows.reduce((s, w) => s + w.count, 0);
  return { windows, coverage: wilsonInterval(covered, n, options.confidence), reached: covered >= needed };
}

function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
