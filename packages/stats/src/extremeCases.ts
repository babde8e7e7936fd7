import { ANALYSIS_DEFAULTS } from './defaults';
import { StatsInputError } from './errors';
import { gramMatrix } from './gram';
import { symmetricEigen } from './linalg';
import type { PopulationMatrix } from './matrix';
import { mulberry32 } from './random';

/** Options of {@link extremeCases}. */
export interface ExtremeCaseOptions {
  /** How many extreme cases (clusters) to return, 1–5 (default 5, spec §9). */
  count?: number;
  /** Fraction of the standardised variance the retained principal components must explain (default 0.9). */
  varianceKept?: number;
  /** Seed of the k-means++ initialisation (default 1). */
  seed?: number;
  /** Maximum Lloyd iterations (default 300). */
  maxIterations?: number;
}

/** One multidimensional extreme case: a real patient. */
export interface ExtremeCase {
  /** Row index of the patient in the analysed matrix. */
  row: number;
  /** Cluster the patient belongs to (0-based, in seeding order). */
  cluster: number;
  /** Patients in that cluster. */
  clusterSize: number;
  /** Euclidean distance from the population centre in the retained principal-component space, in standard deviations. */
  distance: number;
}

/** Extreme cases and how they were found. */
export interface ExtremeCaseResult {
  cases: ExtremeCase[];
  /** Principal components retained. */
  components: number;
  /** Fraction of the standardised variance they explain (0–1). */
  explainedVariance: number;
  /** Cluster index of every patient. */
  assignments: Int32Array;
  /** Lloyd iterations run. */
  iterations: number;
}

/**
 * Up to five multidimensional extreme cases, clustering-based (spec §9; docs/decisions/stats-extreme-cases.md):
 * standardise each parameter (z-scores, SD with n − 1; constant parameters dropped), project on the leading
 * principal components of the correlation matrix explaining `varianceKept` of the variance (Jolliffe 2002),
 * cluster the scores by k-means (Lloyd) seeded with k-means++ (Arthur & Vassilvitskii 2007) from a fixed seed,
 * and in each cluster pick the real patient farthest (Euclidean) from the population centre (the origin).
 * Deterministic for a given seed; cases ordered farthest first. Distances in standard deviations.
 */
export function extremeCases(matrix: PopulationMatrix, options: ExtremeCaseOptions = {}): ExtremeCaseResult {
  const { rows: n, cols: p, data } = matrix;
  const count = options.count ?? ANALYSIS_DEFAULTS.extremeCases;
  const varianceKept = options.varianceKept ?? 0.9;
  const maxIterations = options.maxIterations ?? 300;
  if (!(Number.isInteger(count) && count >= 1 && count <= 5))
    throw new StatsInputError('Between 1 and 5 extreme cases can be asked for.');
  if (!(varianceKept > 0 && varianceKept <= 1)) throw new StatsInputError('The variance kept must lie in (0, 1].');
  if (n < 1 || p < 1) throw new StatsInputError('Extreme cases need at least one patient and one parameter.');

  // 1. Standardise (z-scores); constant parameters carry no direction and are dropped.
  const kept: number[] = [];
  const z = new Float64Array(n * p);
  for (let j = 0; j < p; j++) {
    const off = j * n;
    let s = 0;
    for (let i = 0; i < n; i++) s += data[off + i] ?? 0;
    const mean = s / n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += ((data[off + i] ?? 0) - mean) ** 2;
    const sd = Math.sqrt(ss / (n - 1));
    if (!(sd > 0)) continue;
    const dst = kept.length * n;
    for (let i = 0; i < n; i++) z[dst + i] = ((data[off + i] ?? 0) - mean) / sd;
    kept.push(j);
  }
  const d = kept.length;
  if (d === 0) throw new StatsInputError('Extreme cases need at least one parameter that varies.');

  // 2. PCA of the correlation matrix.
  const corr = gramMatrix(z, n, d);
  for (let k = 0; k < corr.length; k++) corr[k] = (corr[k] as number) / (n - 1);
  const { values, vectors } = symmetricEigen(corr, d);
  let total = 0;
  for (let k = 0; k < d; k++) total += Math.max(0, values[k] ?? 0);
  let q = 0;
  let cum = 0;
  while (q < d) {
    cum += Math.max(0, values[q] ?? 0);
    q++;
    if (cum >= varianceKept * total * (1 - 1e-12)) break;
  }
  // Scores row-major (patient i at i·q), so the clustering reads each patient contiguously.
  const scores = new Float64Array(n * q);
  for (let j = 0; j < d; j++) {
    const src = j * n;
    for (let c = 0; c < q; c++) {
      const w = vectors[j * d + c] as number;
      for (let i = 0; i < n; i++) scores[i * q + c] = (scores[i * q + c] as number) + w * (z[src + i] as number);
    }
  }

  // 3. k-means++ seeding with a fixed seed.
  const k = Math.min(count, n);
  const random = mulberry32(options.seed ?? 1);
  const centres = new Float64Array(k * q);
  const nearest = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  let first = Math.floor(random() * n);
  let chosen = 0;
  for (;;) {
    centres.set(scores.subarray(first * q, first * q + q), chosen * q);
    const co = chosen * q;
    chosen++;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const dist = squaredDistance(scores, i * q, centres, co, q);
      if (dist < (nearest[i] as number)) nearest[i] = dist;
      sum += nearest[i] as number;
    }
    if (chosen >= k || !(sum > 0)) break;
    const u = random() * sum;
    let acc = 0;
    let pick = -1;
    let lastPositive = -1;
    for (let i = 0; i < n; i++) {
      const w = nearest[i] as number;
      if (w > 0) lastPositive = i;
      acc += w;
      if (acc > u) {
        pick = i;
        break;
      }
    }
    first = pick >= 0 ? pick : lastPositive;
  }
  const clusters = chosen;

  // 4. Lloyd iterations, with Hamerly's bounds (2010) to skip distance computations that cannot change an
  //    assignment; the assignments are exactly Lloyd's.
  const assignments = new Int32Array(n).fill(-1);
  const upper = new Float64Array(n); // ≥ distance to the assigned centre
  const lower = new Float64Array(n); // ≤ distance to the second-closest centre
  const sums = new Float64Array(clusters * q);
  const sizes = new Int32Array(clusters);
  const halfGap = new Float64Array(clusters); // half the distance to the nearest other centre
  const moved = new Float64Array(clusters);
  const previous = new Float64Array(clusters * q);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    for (let c = 0; c < clusters; c++) {
      let nearestCentre = Number.POSITIVE_INFINITY;
      for (let o = 0; o < clusters; o++) {
        if (o !== c) nearestCentre = Math.min(nearestCentre, squaredDistance(centres, c * q, centres, o * q, q));
      }
      halfGap[c] = Math.sqrt(nearestCentre) / 2;
    }
    let changed = false;
    for (let i = 0; i < n; i++) {
      const current = assignments[i] as number;
      if (current >= 0) {
        const bound = Math.max(halfGap[current] as number, lower[i] as number);
        if ((upper[i] as number) <= bound) continue;
        upper[i] = Math.sqrt(squaredDistance(scores, i * q, centres, current * q, q));
        if ((upper[i] as number) <= bound) continue;
      }
      let best = 0;
      let bestDist = Number.POSITIVE_INFINITY;
      let second = Number.POSITIVE_INFINITY;
      for (let c = 0; c < clusters; c++) {
        const dist = squaredDistance(scores, i * q, centres, c * q, q);
        if (dist < bestDist) {
          second = bestDist;
          bestDist = dist;
          best = c;
        } else if (dist < second) second = dist;
      }
      upper[i] = Math.sqrt(bestDist);
      lower[i] = Math.sqrt(second);
      if (current !== best) {
        assignments[i] = best;
        changed = true;
      }
    }
    if (!changed) break;
    sums.fill(0);
    sizes.fill(0);
    for (let i = 0; i < n; i++) {
      const c = assignments[i] as number;
      sizes[c] = (sizes[c] as number) + 1;
      const so = c * q;
      const po = i * q;
      for (let e = 0; e < q; e++) sums[so + e] = (sums[so + e] as number) + (scores[po + e] as number);
    }
    previous.set(centres);
    let most = 0;
    let mostAt = -1;
    let secondMost = 0;
    for (let c = 0; c < clusters; c++) {
      const size = sizes[c] as number;
      if (size > 0) {
        for (let e = 0; e < q; e++) centres[c * q + e] = (sums[c * q + e] as number) / size;
      } // an empty cluster keeps its centre
      const m = Math.sqrt(squaredDistance(centres, c * q, previous, c * q, q));
      moved[c] = m;
      if (m > most) {
        secondMost = most;
        most = m;
        mostAt = c;
      } else if (m > secondMost) secondMost = m;
    }
    for (let i = 0; i < n; i++) {
      const c = assignments[i] as number;
      upper[i] = (upper[i] as number) + (moved[c] as number);
      lower[i] = (lower[i] as number) - (c === mostAt ? secondMost : most);
    }
  }

  // 5. In each cluster, the real patient farthest from the population centre.
  const bestRow = new Int32Array(clusters).fill(-1);
  const bestNorm = new Float64Array(clusters).fill(-1);
  const clusterSize = new Int32Array(clusters);
  for (let i = 0; i < n; i++) {
    const c = assignments[i] as number;
    clusterSize[c] = (clusterSize[c] as number) + 1;
    let norm = 0;
    for (let e = 0; e < q; e++) norm += (scores[i * q + e] as number) ** 2;
    if (norm > (bestNorm[c] as number)) {
      bestNorm[c] = norm;
      bestRow[c] = i;
    }
  }
  const cases: ExtremeCase[] = [];
  for (let c = 0; c < clusters; c++) {
    const row = bestRow[c] ?? -1;
    if (row >= 0)
      cases.push({ row, cluster: c, clusterSize: clusterSize[c] ?? 0, distance: Math.sqrt(bestNorm[c] ?? 0) });
  }
  cases.sort((x, y) => y.distance - x.distance || x.row - y.row);
  return { cases, components: q, explainedVariance: total > 0 ? cum / total : 0, assignments, iterations };
}

function squaredDistance(a: Float64Array, ao: number, b: Float64Array, bo: number, q: number): number {
  let s = 0;
  for (let e = 0; e < q; e++) {
    const d = (a[ao + e] as number) - (b[bo + e] as number);
    s += d * d;
  }
  return s;
}
