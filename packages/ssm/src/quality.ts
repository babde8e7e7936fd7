import { gramMatrix, mulberry32, symmetricEigen } from '@insilico/stats';
import { SsmInputError } from './errors';
import { modelInstance, type ShapeModel } from './pca';
import { buildSurfaceIndex, meanDistanceToSurface, surfaceDistance, type SurfaceIndex } from './surfaceDistance';

/**
 * Compactness C(M) = Σₖ≤M λₖ / Σ λ for M = 1 … modeCount (Davies 2002; ShapeWorks' definition): the share of the
 * training set's variance the first M modes hold.
 */
export function compactness(model: ShapeModel): Float64Array {
  const out = new Float64Array(model.modeCount);
  let sum = 0;
  for (let k = 0; k < model.modeCount; k++) {
    sum += model.explained[k] as number;
    out[k] = sum;
  }
  return out;
}

/** Generalisation curve and the per-shape errors it averages. */
export interface Generalisation {
  /** G(M) for M = 1 … length, mean over the left-out shapes, mm. */
  readonly curve: Float64Array;
  /** Shape j's error with the most modes, mm (a shape the others cannot reproduce stands out here). */
  readonly perShape: Float64Array;
}

/**
 * Generalisation G(M) (Davies 2002, ShapeWorks): leave each shape out, build the model of the others, reconstruct the
 * left-out shape from its first M modes, and average the symmetric mean surface distance between reconstruction and
 * shape. Every leave-one-out model comes from the full Gram matrix (the centred Gram of N − 1 shapes is a
 * re-centring of its rows), so only the reconstructions touch 3V-vectors. M runs to min(maxModes, N − 2).
 */
export function generalisation(
  shapes: readonly Float64Array[],
  indices: Uint32Array,
  options: { maxModes?: number; stride?: number } = {},
): Generalisation {
  const n = shapes.length;
  if (n < 3) throw new SsmInputError('Generalisation needs at least three shapes.');
  const { centred, mean, d } = centreAll(shapes);
  const raw = gramMatrix(centred, d, n);
  const m = n - 1;
  const maxModes = Math.max(1, Math.min(options.maxModes ?? m - 1, m - 1));
  const sums = new Float64Array(maxModes);
  const counts = new Float64Array(maxModes);
  const perShape = new Float64Array(n);
  const originals = shapes.map((s) => buildSurfaceIndex(s, indices));
  const rebuilt = new Float64Array(d);
  for (let out = 0; out < n; out++) {
    const keep = Array.from({ length: n }, (_, a) => a).filter((a) => a !== out);
    const rowMean = new Float64Array(n);
    for (let a = 0; a < n; a++) {
      let s = 0;
      for (const j of keep) s += raw[a * n + j] as number;
      rowMean[a] = s / m;
    }
    let grand = 0;
    for (const a of keep) grand += rowMean[a] as number;
    grand /= m;
    const g = new Float64Array(m * m);
    const p = new Float64Array(m);
    keep.forEach((a, ia) => {
      keep.forEach((b, ib) => {
        g[ia * m + ib] = (raw[a * n + b] as number) - (rowMean[a] as number) - (rowMean[b] as number) + grand;
      });
      p[ia] = (raw[a * n + out] as number) - (rowMean[a] as number) - (rowMean[out] as number) + grand;
    });
    const { values, vectors } = symmetricEigen(g, m);
    let total = 0;
    for (let k = 0; k < m; k++) total += Math.max(0, values[k] as number);
    // Weights w of the reconstruction Σ w_a (s_a − mean), grown one mode at a time.
    const w = new Float64Array(m);
    let last = 0;
    for (let k = 0; k < maxModes; k++) {
      const lambda = values[k] as number;
      if (lambda > 1e-12 * total) {
        let b = 0;
        for (let a = 0; a < m; a++) b += (vectors[a * m + k] as number) * (p[a] as number);
        b /= lambda; // b_k / √Λ_k twice: once for the coefficient, once for the mode's normalisation
        for (let a = 0; a < m; a++) w[a] = (w[a] as number) + b * (vectors[a * m + k] as number);
      }
      // mean of the others + Σ w_a (s_a − mean of the others) = overall mean + Σ ((1 − Σw)/m + w_a) (centred s_a).
      let wSum = 0;
      for (let a = 0; a < m; a++) wSum += w[a] as number;
      rebuilt.set(mean);
      keep.forEach((src, a) => {
        const c = (1 - wSum) / m + (w[a] as number);
        const o = src * d;
        for (let i = 0; i < d; i++) rebuilt[i] = (rebuilt[i] as number) + c * (centred[o + i] as number);
      });
      last = surfaceDistance(buildSurfaceIndex(rebuilt, indices), originals[out] as SurfaceIndex, options.stride);
      sums[k] = (sums[k] as number) + last;
      counts[k] = (counts[k] as number) + 1;
    }
    perShape[out] = last;
  }
  return { curve: sums.map((s, k) => s / (counts[k] as number)), perShape };
}

/**
 * Specificity S(M) (Davies 2002, ShapeWorks): draw `samples` shapes from the model restricted to its first M modes
 * (bₖ ~ N(0, λₖ)), and average the mean distance of each one's vertices to the surface of the nearest training shape
 * (one way: how far a generated shape lies from a real one, without indexing every sample's surface). The nearest
 * one is found exactly in coefficient space (‖x − xⱼ‖² = Σₖ≤M (bₖ − cⱼₖ)² + Σₖ>M cⱼₖ², the training shapes lying in
 * the span of the modes); the same standard-normal draws serve every M, so the curve is not jagged by sampling.
 */
export function specificity(
  model: ShapeModel,
  shapes: readonly Float64Array[],
  indices: Uint32Array,
  options: { maxModes?: number; samples?: number; seed?: number; stride?: number } = {},
): Float64Array {
  const samples = options.samples ?? 1000;
  const maxModes = Math.max(1, Math.min(options.maxModes ?? model.modeCount, model.modeCount));
  if (shapes.length !== model.shapeCount) throw new SsmInputError('Specificity needs the model’s training shapes.');
  if (!(Number.isInteger(samples) && samples >= 1)) throw new SsmInputError('Specificity needs at least one sample.');
  const training = shapes.map((s) => buildSurfaceIndex(s, indices));
  const random = mulberry32(options.seed ?? 1);
  const z = new Float64Array(samples * maxModes);
  for (let i = 0; i < z.length; i++) z[i] = standardNormal(random);
  const n = model.shapeCount;
  const K = model.modeCount;
  const c = model.coefficients;
  const curve = new Float64Array(maxModes);
  const sample = new Float64Array(model.mean.length);
  const sd = new Float64Array(maxModes);
  for (let M = 1; M <= maxModes; M++) {
    let sum = 0;
    for (let s = 0; s < samples; s++) {
      for (let k = 0; k < M; k++) sd[k] = z[s * maxModes + k] as number;
      let nearest = 0;
      let nearestD2 = Infinity;
      for (let j = 0; j < n; j++) {
        let d2 = 0;
        for (let k = 0; k < K; k++) {
          const cjk = c[j * K + k] as number;
          const bk = k < M ? (sd[k] as number) * Math.sqrt(model.variances[k] as number) : 0;
          d2 += (bk - cjk) ** 2;
        }
        if (d2 < nearestD2) {
          nearestD2 = d2;
          nearest = j;
        }
      }
      modelInstance(model, sd.subarray(0, M), sample);
      sum += meanDistanceToSurface(sample, training[nearest] as SurfaceIndex, options.stride);
    }
    curve[M - 1] = sum / samples;
  }
  return curve;
}

/** A standard normal deviate by Box–Muller from a uniform generator on [0, 1). */
function standardNormal(random: () => number): number {
  const u = 1 - random(); // (0, 1]: log(0) never taken
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Shapes minus their overall mean, column-major d × n (shape j contiguous), for a well-conditioned Gram matrix. */
function centreAll(shapes: readonly Float64Array[]): { centred: Float64Array; mean: Float64Array; d: number } {
  const n = shapes.length;
  const d = (shapes[0] as Float64Array).length;
  if (shapes.some((s) => s.length !== d)) throw new SsmInputError('Every shape must have the same number of vertices.');
  const mean = new Float64Array(d);
  for (const s of shapes) for (let i = 0; i < d; i++) mean[i] = (mean[i] as number) + (s[i] as number) / n;
  const centred = new Float64Array(d * n);
  shapes.forEach((s, j) => {
    for (let i = 0; i < d; i++) centred[j * d + i] = (s[i] as number) - (mean[i] as number);
  });
  return { centred, mean, d };
}
