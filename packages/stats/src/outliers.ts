import chisquareQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import { ANALYSIS_DEFAULTS } from './defaults';
import { StatsInputError } from './errors';
import { centredCrossProducts } from './correlation';
import { choleskyInPlace } from './linalg';
import type { PopulationMatrix } from './matrix';
import { percentileOfSorted, sortedFinite } from './quantile';

/** Tukey fences of one parameter and the indices of the values outside them. */
export interface TukeyOutliers {
  /** Q1 and Q3 (numpy linear percentiles 25 and 75), in the data's unit. */
  q1: number;
  q3: number;
  /** Q1 − k·IQR and Q3 + k·IQR, in the data's unit. */
  lower: number;
  upper: number;
  /** Indices (into the input) of finite values strictly below `lower` or above `upper`, ascending. */
  indices: number[];
}

/** Squared Mahalanobis distances and the patients beyond the χ² cut-off. */
export interface MahalanobisOutliers {
  /** Squared Mahalanobis distance of each patient from the mean (dimensionless). */
  distances: Float64Array;
  /** χ²(p) quantile at 1 − alpha, the cut-off on the squared distance. */
  threshold: number;
  alpha: number;
  /** Degrees of freedom p = number of parameters. */
  degreesOfFreedom: number;
  /** Row indices with distance > threshold, farthest first. */
  indices: number[];
}

/**
 * Univariate outliers by Tukey's fences (Tukey 1977, Exploratory Data Analysis): values below
 * Q1 − k·IQR or above Q3 + k·IQR, k = 1.5 by default, with numpy's linear quartiles.
 * Non-finite values are ignored. Units: those of the values.
 */
export function tukeyOutliers(
  values: ArrayLike<number>,
  k: number = ANALYSIS_DEFAULTS.tukeyK,
  sorted: Float64Array = sortedFinite(values),
): TukeyOutliers {
  const q1 = percentileOfSorted(sorted, 25);
  const q3 = percentileOfSorted(sorted, 75);
  const iqr = q3 - q1;
  const lower = q1 - k * iqr;
  const upper = q3 + k * iqr;
  const indices: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? Number.NaN;
    if (v < lower || v > upper) indices.push(i);
  }
  return { q1, q3, lower, upper, indices };
}

/**
 * Multivariate outliers: squared Mahalanobis distance D² = (x − x̄)ᵀ S⁻¹ (x − x̄) of each patient, with the
 * sample covariance S (n − 1), computed by Cholesky whitening; patients with D² above the χ²(p) quantile at
 * 1 − alpha (@stdlib chi-square quantile; default alpha 0.001, spec §9) are flagged.
 * Reference: `scipy.spatial.distance.mahalanobis(x, mean, inv(cov))**2` and `scipy.stats.chi2.ppf(1 − alpha, p)`.
 */
export function mahalanobisOutliers(
  matrix: PopulationMatrix,
  alpha: number = ANALYSIS_DEFAULTS.alpha,
): MahalanobisOutliers {
  const { rows, cols } = matrix;
  if (!(alpha > 0 && alpha < 1)) throw new StatsInputError('Alpha must lie strictly between 0 and 1.');
  if (rows <= cols) throw new StatsInputError('Mahalanobis distance needs more patients than parameters.');
  const centred = new Float64Array(matrix.data.length);
  const cov = centredCrossProducts(matrix.data, rows, cols, centred);
  return mahalanobisFromCentred(centred, cov, rows, cols, alpha);
}

/**
 * {@link mahalanobisOutliers} from already centred columns and their cross-product matrix (consumed).
 * @internal used by the full analysis to share work with the Pearson matrix.
 */
export function mahalanobisFromCentred(
  centred: Float64Array,
  crossProducts: Float64Array,
  rows: number,
  cols: number,
  alpha: number,
): MahalanobisOutliers {
  const l = crossProducts;
  for (let k = 0; k < l.length; k++) l[k] = (l[k] ?? 0) / (rows - 1);
  choleskyInPlace(l, cols);
  // Whiten column by column: z_j = (x_j − Σ_{k<j} L_jk z_k) / L_jj; D² = Σ_j z_j².
  const z = new Float64Array(rows * cols);
  const distances = new Float64Array(rows);
  for (let j = 0; j < cols; j++) {
    const zj = j * rows;
    z.set(centred.subarray(zj, zj + rows), zj);
    // Subtract four earlier columns per pass, so z_j is loaded and stored once per four.
    let k = 0;
    for (; k + 3 < j; k += 4) {
      const l0 = l[j * cols + k] as number;
      const l1 = l[j * cols + k + 1] as number;
      const l2 = l[j * cols + k + 2] as number;
      const l3 = l[j * cols + k + 3] as number;
      const z0 = k * rows;
      const z1 = z0 + rows;
      const z2 = z1 + rows;
      const z3 = z2 + rows;
      for (let i = 0; i < rows; i++) {
        z[zj + i] =
          (z[zj + i] as number) -
          (l0 * (z[z0 + i] as number) +
            l1 * (z[z1 + i] as number) +
            l2 * (z[z2 + i] as number) +
            l3 * (z[z3 + i] as number));
      }
    }
    for (; k < j; k++) {
      const ljk = l[j * cols + k] as number;
      const zk = k * rows;
      for (let i = 0; i < rows; i++) z[zj + i] = (z[zj + i] as number) - ljk * (z[zk + i] as number);
    }
    const inv = 1 / (l[j * cols + j] as number);
    for (let i = 0; i < rows; i++) {
      const v = (z[zj + i] as number) * inv;
      z[zj + i] = v;
      distances[i] = (distances[i] as number) + v * v;
    }
  }
  const threshold = chisquareQuantile(1 - alpha, cols);
  const indices: number[] = [];
  for (let i = 0; i < rows; i++) if ((distances[i] ?? 0) > threshold) indices.push(i);
  indices.sort((a, b) => (distances[b] ?? 0) - (distances[a] ?? 0) || a - b);
  return { distances, threshold, alpha, degreesOfFreedom: cols, indices };
}
