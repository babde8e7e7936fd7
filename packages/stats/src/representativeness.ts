import chisquareQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import { StatsInputError } from './errors';
import { choleskyInPlace } from './linalg';
import type { PopulationMatrix } from './matrix';
import { sortedFinite } from './quantile';
import { mulberry32 } from './random';

/**
 * Is a virtual cohort representative of a reference population (issue 23)? Two-sample tests per parameter, the
 * reference's range the cohort covers, and over all parameters the energy distance with a permutation p-value and
 * the squared Mahalanobis distances of the cohort from the reference with their χ² QQ plot. Checked against scipy
 * and numpy (tools/stats-reference/representativeness.py).
 */

/** The two-sample Kolmogorov–Smirnov test (two-sided). */
export interface KsTest {
  /** D = sup |F₁ − F₂| of the two empirical distribution functions (0–1). */
  statistic: number;
  /** P(D ≥ observed) under the null hypothesis of one distribution. */
  pValue: number;
  /** `exact`: lattice-path count (m·n ≤ {@link KS_EXACT_LIMIT}); `asymptotic`: Kolmogorov's limit law. */
  method: 'exact' | 'asymptotic';
  n1: number;
  n2: number;
}

/** Above this m·n the asymptotic p-value is used (the exact count costs m·n steps). */
export const KS_EXACT_LIMIT = 25_000_000;

/**
 * Two-sample Kolmogorov–Smirnov test, two-sided (Smirnov 1939). Non-finite values are dropped. The statistic is
 * scipy's `ks_2samp(a, b).statistic` (ties handled by evaluating both distribution functions after every tied
 * value). The exact p-value counts the monotone lattice paths from (0, 0) to (m, n) that stay strictly inside
 * |i/m − j/n| < D (Hodges 1957), as probabilities of a random path so nothing overflows — scipy's
 * `ks_2samp(method="exact")`, which, like this, assumes no ties. The asymptotic p-value is Kolmogorov's limit
 * `kstwobign.sf(√(mn/(m+n))·D)`; scipy's own `method="asymp"` uses `kstwo.sf(D, round(mn/(m+n)))`, which differs by
 * O(1/√n).
 */
export function ksTwoSample(a: ArrayLike<number>, b: ArrayLike<number>): KsTest {
  const x = sortedFinite(a);
  const y = sortedFinite(b);
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new StatsInputError('A two-sample test needs values in both samples.');
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < n1 && j < n2) {
    const v = Math.min(x[i] as number, y[j] as number);
    while (i < n1 && (x[i] as number) <= v) i++;
    while (j < n2 && (y[j] as number) <= v) j++;
    d = Math.max(d, Math.abs(i / n1 - j / n2));
  }
  if (n1 * n2 <= KS_EXACT_LIMIT) return { statistic: d, pValue: ksExactOutside(n1, n2, d), method: 'exact', n1, n2 };
  const lambda = Math.sqrt((n1 * n2) / (n1 + n2)) * d;
  return { statistic: d, pValue: kolmogorovSurvival(lambda), method: 'asymptotic', n1, n2 };
}

/** P(D ≥ d) for samples of m and n without ties: one minus the share of lattice paths staying inside. */
export function ksExactOutside(m: number, n: number, d: number): number {
  // On the lattice |i/m − j/n| = |i·n − j·m| / (m·n): an integer over m·n, so the bound is an integer too.
  const bound = Math.round(d * m * n);
  if (bound <= 0) return 1;
  const total = m + n;
  // row[j]: probability that a uniformly random path passes (i, j) having stayed inside so far.
  const row = new Float64Array(n + 1);
  const inside = (i: number, j: number) => Math.abs(i * n - j * m) < bound;
  row[0] = 1;
  for (let j = 1; j <= n; j++) row[j] = inside(0, j) ? (row[j - 1] as number) * ((n - (j - 1)) / (total - (j - 1))) : 0;
  for (let i = 1; i <= m; i++) {
    // From (i − 1, j) by a step in the first sample, or from (i, j − 1) by a step in the second.
    row[0] = inside(i, 0) ? row[0] * ((m - (i - 1)) / (total - (i - 1))) : 0;
    for (let j = 1; j <= n; j++) {
      if (!inside(i, j)) {
        row[j] = 0;
        continue;
      }
      const fromBelow = (row[j] as number) * ((m - (i - 1)) / (total - (i - 1) - j));
      const fromLeft = (row[j - 1] as number) * ((n - (j - 1)) / (total - i - (j - 1)));
      row[j] = fromBelow + fromLeft;
    }
  }
  return Math.min(1, Math.max(0, 1 - (row[n] as number)));
}

/**
 * Kolmogorov's survival function Q(λ) = P(K > λ) (scipy `kstwobign.sf`): 2 Σ (−1)^(k−1) e^(−2k²λ²) for λ ≥ 1,
 * else 1 − (√(2π)/λ) Σ e^(−(2k−1)²π²/(8λ²)), each summed until its terms vanish.
 */
export function kolmogorovSurvival(lambda: number): number {
  if (!(lambda > 0)) return 1;
  if (lambda >= 1) {
    let sum = 0;
    for (let k = 1; k < 100; k++) {
      const term = Math.exp(-2 * k * k * lambda * lambda);
      sum += k % 2 === 1 ? term : -term;
      if (term < 1e-17) break;
    }
    return Math.min(1, Math.max(0, 2 * sum));
  }
  let cdf = 0;
  for (let k = 1; k < 100; k++) {
    const term = Math.exp((-((2 * k - 1) ** 2) * Math.PI * Math.PI) / (8 * lambda * lambda));
    cdf += term;
    if (term < 1e-17 * cdf) break;
  }
  return Math.min(1, Math.max(0, 1 - (Math.sqrt(2 * Math.PI) / lambda) * cdf));
}

/** How much of the reference's spread the cohort reaches on one parameter. */
export interface RangeCovered {
  /** The share (0–1) of the reference's range [min, max] inside the cohort's range. */
  rangeFraction: number;
  /** The share (0–1) of the reference's patients whose value lies inside the cohort's range. */
  patientFraction: number;
  cohort: { min: number; max: number };
  reference: { min: number; max: number };
}

/** {@link RangeCovered}: non-finite values are dropped; a reference of one value counts as covered or not. */
export function rangeCovered(cohort: ArrayLike<number>, reference: ArrayLike<number>): RangeCovered {
  const c = sortedFinite(cohort);
  const r = sortedFinite(reference);
  if (c.length === 0 || r.length === 0) throw new StatsInputError('Range coverage needs values in both samples.');
  const cMin = c[0] as number;
  const cMax = c[c.length - 1] as number;
  const rMin = r[0] as number;
  const rMax = r[r.length - 1] as number;
  let inside = 0;
  for (const v of r) if (v >= cMin && v <= cMax) inside++;
  const overlap = Math.max(0, Math.min(cMax, rMax) - Math.max(cMin, rMin));
  const rangeFraction = rMax > rMin ? overlap / (rMax - rMin) : rMin >= cMin && rMin <= cMax ? 1 : 0;
  return {
    rangeFraction,
    patientFraction: inside / r.length,
    cohort: { min: cMin, max: cMax },
    reference: { min: rMin, max: rMax },
  };
}

/** The energy distance of two multivariate samples with its permutation test. */
export interface EnergyTest {
  /** E = 2·mean|X − Y| − mean|X − X′| − mean|Y − Y′| (Euclidean, V-statistic means), in the data's scale. */
  energy: number;
  /** The test statistic T = n·m/(n + m)·E. */
  statistic: number;
  /** (1 + #{T_perm ≥ T}) / (1 + permutations). */
  pValue: number;
  permutations: number;
  n1: number;
  n2: number;
}

/**
 * Energy distance (Székely & Rizzo 2004, "Testing for equal distributions in high dimension") between the rows
 * of two matrices with the same columns, and its permutation test: the pooled rows are relabelled by a seeded
 * Fisher–Yates shuffle (Mulberry32, reproducible in Python) `permutations` times. The caller scales the columns
 * (the representativeness comparison divides each by the reference's SD). Rows with a non-finite value are
 * dropped. The pooled distance matrix costs (n + m)² numbers: the caller caps the sample sizes.
 * Reference: numpy with scipy.spatial.distance.cdist; in one dimension E = scipy.stats.energy_distance(x, y)².
 */
export function energyTest(
  x: PopulationMatrix,
  y: PopulationMatrix,
  options: { permutations?: number; seed?: number } = {},
): EnergyTest {
  if (x.cols !== y.cols) throw new StatsInputError('Both samples need the same parameters.');
  const permutations = options.permutations ?? 499;
  const a = finiteRows(x);
  const b = finiteRows(y);
  const n1 = a.length;
  const n2 = b.length;
  if (n1 < 2 || n2 < 2) throw new StatsInputError('The energy test needs at least two patients in each sample.');
  const pooled = [...a, ...b];
  const size = pooled.length;
  const distance = new Float64Array(size * size);
  let total = 0;
  for (let i = 0; i < size; i++)
    for (let j = i + 1; j < size; j++) {
      const p = pooled[i] as Float64Array;
      const q = pooled[j] as Float64Array;
      let s = 0;
      for (let k = 0; k < p.length; k++) s += ((p[k] as number) - (q[k] as number)) ** 2;
      const dist = Math.sqrt(s);
      distance[i * size + j] = dist;
      distance[j * size + i] = dist;
      total += 2 * dist;
    }
  const labels = new Uint8Array(size);
  labels.fill(1, n1);
  const statisticOf = () => {
    let within0 = 0;
    let within1 = 0;
    for (let i = 0; i < size; i++) {
      const li = labels[i];
      const offset = i * size;
      for (let j = 0; j < size; j++) {
        if (labels[j] !== li) continue;
        if (li === 0) within0 += distance[offset + j] as number;
        else within1 += distance[offset + j] as number;
      }
    }
    const between = (total - within0 - within1) / 2;
    const energy = (2 * between) / (n1 * n2) - within0 / (n1 * n1) - within1 / (n2 * n2);
    return { energy, statistic: ((n1 * n2) / size) * energy };
  };
  const observed = statisticOf();
  const random = mulberry32(options.seed ?? 1);
  let asLarge = 0;
  for (let p = 0; p < permutations; p++) {
    for (let i = size - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const t = labels[i] as number;
      labels[i] = labels[j] as number;
      labels[j] = t;
    }
    if (statisticOf().statistic >= observed.statistic) asLarge++;
  }
  return { ...observed, pValue: (1 + asLarge) / (1 + permutations), permutations, n1, n2 };
}

function finiteRows(m: PopulationMatrix): Float64Array[] {
  const rows: Float64Array[] = [];
  for (let i = 0; i < m.rows; i++) {
    const row = new Float64Array(m.cols);
    let ok = true;
    for (let j = 0; j < m.cols; j++) {
      const v = m.data[j * m.rows + i] as number;
      if (!Number.isFinite(v)) ok = false;
      row[j] = v;
    }
    if (ok) rows.push(row);
  }
  return rows;
}

/** The cohort's squared Mahalanobis distances from a reference, against χ²(p) quantiles. */
export interface MahalanobisQq {
  /** Squared distances of the cohort's complete rows, ascending (dimensionless). */
  distances: number[];
  /** χ²(p) quantiles at (i − ½)/n, i = 1…n: where the distances lie if the cohort were drawn from the reference. */
  expected: number[];
  degreesOfFreedom: number;
  /** The share of the cohort beyond the reference's χ²(p) 95 % quantile (about 5 % when representative). */
  beyond95: number;
}

/**
 * Squared Mahalanobis distances D² = (x − μ)ᵀ Σ⁻¹ (x − μ) of each cohort row from the reference's mean μ and
 * covariance Σ (p × p, row-major; from the reference's patients or from published means, SDs and correlations),
 * by Cholesky, and the χ²(p) QQ plot of them (Johnson & Wichern, Applied Multivariate Statistical Analysis, §4.6).
 * Rows with a non-finite value are dropped. Reference: scipy.spatial.distance.mahalanobis and scipy.stats.chi2.ppf.
 */
export function mahalanobisQq(
  cohort: PopulationMatrix,
  mean: readonly number[],
  covariance: Float64Array,
): MahalanobisQq {
  const p = cohort.cols;
  if (mean.length !== p || covariance.length !== p * p)
    throw new StatsInputError('The reference needs a mean and a covariance for every parameter.');
  const l = choleskyInPlace(Float64Array.from(covariance), p);
  const distances: number[] = [];
  const z = new Float64Array(p);
  for (const row of finiteRows(cohort)) {
    let d2 = 0;
    for (let j = 0; j < p; j++) {
      let v = (row[j] as number) - (mean[j] as number);
      for (let k = 0; k < j; k++) v -= (l[j * p + k] as number) * (z[k] as number);
      v /= l[j * p + j] as number;
      z[j] = v;
      d2 += v * v;
    }
    distances.push(d2);
  }
  distances.sort((a, b) => a - b);
  const n = distances.length;
  const expected = distances.map((_, i) => chisquareQuantile((i + 0.5) / n, p));
  const cut = chisquareQuantile(0.95, p);
  return {
    distances,
    expected,
    degreesOfFreedom: p,
    beyond95: n === 0 ? 0 : distances.filter((d) => d > cut).length / n,
  };
}

/** Covariance (row-major) from SDs and a correlation matrix: Σ_jk = s_j·s_k·ρ_jk (published summary statistics). */
export function covarianceOf(sds: readonly number[], correlation: readonly (readonly number[])[]): Float64Array {
  const p = sds.length;
  const out = new Float64Array(p * p);
  for (let j = 0; j < p; j++)
    for (let k = 0; k < p; k++) out[j * p + k] = (sds[j] as number) * (sds[k] as number) * (correlation[j]?.[k] ?? 0);
  return out;
}
