import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { ANALYSIS_DEFAULTS } from './defaults';
import { StatsInputError } from './errors';
import { gramMatrix } from './gram';
import type { PopulationMatrix } from './matrix';

/** A symmetric correlation matrix with two-sided p-values, both row-major size × size. */
export interface CorrelationMatrix {
  method: 'pearson' | 'spearman';
  /** Number of parameters. */
  size: number;
  /** Number of patients. */
  n: number;
  /** Correlation coefficients r (dimensionless, −1…1); NaN where a parameter is constant. */
  r: Float64Array;
  /** Two-sided p-values of H0: no correlation (t-distribution with n − 2 degrees of freedom). */
  p: Float64Array;
}

/** A pair of parameters whose correlation is both strong and significant. */
export interface CorrelatedPair {
  /** Parameter indices, a < b. */
  a: number;
  b: number;
  r: number;
  p: number;
}

/** Thresholds for {@link flagCorrelatedPairs}; defaults are the spec's 0.9 and 0.001 (§9). */
export interface CorrelationFlagOptions {
  threshold?: number;
  alpha?: number;
}

/**
 * Ranks 1…n of `values` with ties given their average rank — `scipy.stats.rankdata(x, method="average")`.
 * Writes into `out` when given (length n) and returns it. Dimensionless.
 */
export function averageRanks(
  values: ArrayLike<number>,
  out: Float64Array = new Float64Array(values.length),
): Float64Array {
  sortAndRank(values, new Float64Array(values.length), out);
  return out;
}

/**
 * Sorts `values` ascending into `sorted` and writes their average ranks (1…n, ties averaged) into `ranks`.
 * @internal lets the full analysis sort each parameter once for its summary and its Spearman ranks.
 */
export function sortAndRank(values: ArrayLike<number>, sorted: Float64Array, ranks: Float64Array): void {
  const n = values.length;
  for (let i = 0; i < n; i++) sorted[i] = values[i] as number;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  sortWithIndex(sorted, order);
  for (let k = 0; k < n;) {
    const v = sorted[k] as number;
    let e = k + 1;
    while (e < n && sorted[e] === v) e++;
    const rank = (k + 1 + e) / 2;
    for (let t = k; t < e; t++) ranks[order[t] as number] = rank;
    k = e;
  }
}

/** Sorts `keys` ascending and applies the same permutation to `index` (bottom-up merge sort, stable). */
function sortWithIndex(keys: Float64Array, index: Int32Array): void {
  const n = keys.length;
  let srcK: Float64Array = keys;
  let srcI: Int32Array = index;
  let dstK: Float64Array = new Float64Array(n);
  let dstI: Int32Array = new Int32Array(n);
  // Insertion-sort runs of 16, then merge.
  const run = 16;
  for (let lo = 0; lo < n; lo += run) {
    const hi = Math.min(lo + run, n);
    for (let i = lo + 1; i < hi; i++) {
      const k = srcK[i] as number;
      const x = srcI[i] as number;
      let j = i - 1;
      while (j >= lo && (srcK[j] as number) > k) {
        srcK[j + 1] = srcK[j] as number;
        srcI[j + 1] = srcI[j] as number;
        j--;
      }
      srcK[j + 1] = k;
      srcI[j + 1] = x;
    }
  }
  for (let width = run; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      let o = lo;
      while (a < mid && b < hi) {
        if ((srcK[b] as number) < (srcK[a] as number)) {
          dstK[o] = srcK[b] as number;
          dstI[o++] = srcI[b++] as number;
        } else {
          dstK[o] = srcK[a] as number;
          dstI[o++] = srcI[a++] as number;
        }
      }
      while (a < mid) {
        dstK[o] = srcK[a] as number;
        dstI[o++] = srcI[a++] as number;
      }
      while (b < hi) {
        dstK[o] = srcK[b] as number;
        dstI[o++] = srcI[b++] as number;
      }
    }
    [srcK, dstK] = [dstK, srcK];
    [srcI, dstI] = [dstI, srcI];
  }
  if (srcK !== keys) {
    keys.set(srcK);
    index.set(srcI);
  }
}

/**
 * Two-sided p-value of a correlation coefficient `r` from `n` pairs: t = r·√((n−2)/(1−r²)),
 * p = 2·T_{n−2}(−|t|) with the Student-t CDF of @stdlib. Equals `scipy.stats.pearsonr`'s exact
 * beta-distribution p-value and `scipy.stats.spearmanr`'s p-value. Dimensionless.
 */
export function correlationPValue(r: number, n: number): number {
  if (Number.isNaN(r) || n < 3) return Number.NaN;
  const df = n - 2;
  const ar = Math.min(1, Math.abs(r));
  if (ar === 1) return 0;
  const t = ar * Math.sqrt(df / ((1 - ar) * (1 + ar)));
  return Math.min(1, 2 * tCdf(-t, df));
}

/**
 * Pearson product-moment correlation matrix of the parameters (columns) with two-sided p-values —
 * `numpy.corrcoef` and `scipy.stats.pearsonr` for each pair. Dimensionless.
 */
export function pearsonMatrix(matrix: PopulationMatrix): CorrelationMatrix {
  const r = correlationOfColumns(matrix.data, matrix.rows, matrix.cols, new Float64Array(matrix.data.length));
  return {
    method: 'pearson',
    size: matrix.cols,
    n: matrix.rows,
    r,
    p: correlationPValues(r, matrix.cols, matrix.rows),
  };
}

/**
 * Spearman rank correlation matrix (Pearson correlation of average ranks) with two-sided p-values
 * from the t-distribution with n − 2 degrees of freedom — `scipy.stats.spearmanr(matrix)`. Dimensionless.
 */
export function spearmanMatrix(matrix: PopulationMatrix): CorrelationMatrix {
  const { rows, cols, data } = matrix;
  const ranks = new Float64Array(data.length);
  for (let j = 0; j < cols; j++)
    averageRanks(data.subarray(j * rows, (j + 1) * rows), ranks.subarray(j * rows, (j + 1) * rows));
  return spearmanFromRanks(ranks, rows, cols);
}

/**
 * {@link spearmanMatrix} from column-major average ranks (consumed: centred in place).
 * @internal used by the full analysis.
 */
export function spearmanFromRanks(ranks: Float64Array, rows: number, cols: number): CorrelationMatrix {
  const r = correlationOfColumns(ranks, rows, cols, ranks);
  return { method: 'spearman', size: cols, n: rows, r, p: correlationPValues(r, cols, rows) };
}

/**
 * Pairs (a < b) whose |r| ≥ threshold and p < alpha (spec §9 defaults 0.9 and 0.001), strongest first.
 */
export function flagCorrelatedPairs(result: CorrelationMatrix, options: CorrelationFlagOptions = {}): CorrelatedPair[] {
  const threshold = options.threshold ?? ANALYSIS_DEFAULTS.correlationThreshold;
  const alpha = options.alpha ?? ANALYSIS_DEFAULTS.alpha;
  const { size } = result;
  const pairs: CorrelatedPair[] = [];
  for (let a = 0; a < size; a++) {
    for (let b = a + 1; b < size; b++) {
      const r = result.r[a * size + b] ?? Number.NaN;
      const p = result.p[a * size + b] ?? Number.NaN;
      if (Math.abs(r) >= threshold && p < alpha) pairs.push({ a, b, r, p });
    }
  }
  return pairs.sort((x, y) => Math.abs(y.r) - Math.abs(x.r) || x.a - y.a || x.b - y.b);
}

/**
 * Centres each column of `data` (column-major rows × cols) into `centred` (may be `data` itself) and
 * returns the cross-product matrix Σ (x − x̄)(y − ȳ) (row-major cols × cols). Also fills `means` if given.
 * @internal shared by correlation and Mahalanobis distance.
 */
export function centredCrossProducts(
  data: Float64Array,
  rows: number,
  cols: number,
  centred: Float64Array,
  means?: Float64Array,
): Float64Array {
  if (rows < 2) throw new StatsInputError('Correlation needs at least 2 patients.');
  for (let j = 0; j < cols; j++) {
    const off = j * rows;
    let s = 0;
    for (let i = 0; i < rows; i++) s += data[off + i] ?? 0;
    const mean = s / rows;
    if (means) means[j] = mean;
    for (let i = 0; i < rows; i++) centred[off + i] = (data[off + i] ?? 0) - mean;
  }
  const cp = gramMatrix(centred, rows, cols);
  return cp;
}

function correlationOfColumns(data: Float64Array, rows: number, cols: number, scratch: Float64Array): Float64Array {
  return correlationFromCrossProducts(centredCrossProducts(data, rows, cols, scratch), cols);
}

/**
 * Correlation coefficients from a centred cross-product (or covariance) matrix, clipped to [−1, 1].
 * @internal shared with the full analysis.
 */
export function correlationFromCrossProducts(cp: Float64Array, cols: number): Float64Array {
  const r = new Float64Array(cols * cols);
  for (let a = 0; a < cols; a++) {
    for (let b = 0; b < cols; b++) {
      const v = (cp[a * cols + b] ?? 0) / Math.sqrt((cp[a * cols + a] ?? 0) * (cp[b * cols + b] ?? 0));
      // Clip rounding excursions beyond ±1, as numpy.corrcoef does.
      r[a * cols + b] = a === b && Number.isFinite(v) ? 1 : Math.max(-1, Math.min(1, v));
    }
  }
  return r;
}

/**
 * Two-sided p-values of every coefficient of a correlation matrix ({@link correlationPValue}); 0 on the diagonal.
 * @internal shared with the full analysis.
 */
export function correlationPValues(r: Float64Array, size: number, n: number): Float64Array {
  const p = new Float64Array(size * size);
  for (let a = 0; a < size; a++) {
    p[a * size + a] = Number.isNaN(r[a * size + a] ?? Number.NaN) ? Number.NaN : 0;
    for (let b = a + 1; b < size; b++) {
      const v = correlationPValue(r[a * size + b] ?? Number.NaN, n);
      p[a * size + b] = v;
      p[b * size + a] = v;
    }
  }
  return p;
}
