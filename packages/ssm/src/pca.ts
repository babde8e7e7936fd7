import { gramMatrix, symmetricEigen } from '@insilico/stats';
import { SsmInputError } from './errors';

/**
 * A point distribution model: x = mean + Σₖ bₖ φₖ over packed xyz positions (mm). The modes φₖ are orthonormal;
 * a coefficient bₖ has variance λₖ = sₖ²/(N − 1), sₖ² the k-th eigenvalue of the centred N × N Gram matrix (the
 * unbiased sample covariance's eigenvalues).
 */
export interface ShapeModel {
  readonly shapeCount: number;
  readonly vertexCount: number;
  /** Mean shape, packed xyz, mm. */
  readonly mean: Float64Array;
  /** Mode k is `modes.subarray(k · 3V, (k + 1) · 3V)`, unit Euclidean norm. */
  readonly modes: Float64Array;
  readonly modeCount: number;
  /** λₖ, mm², descending. */
  readonly variances: Float64Array;
  /** λₖ / Σλ, descending, summing to 1. */
  readonly explained: Float64Array;
  /** Coefficients of the training shapes, shape j's b in `coefficients.subarray(j · modeCount, …)`, mm. */
  readonly coefficients: Float64Array;
}

/** What drawing an instance needs: the mean, the modes and their variances (a decoded model file has these). */
export type ShapeBasis = Pick<ShapeModel, 'mean' | 'modes' | 'modeCount' | 'variances'>;

/** Options of {@link buildShapeModel}. */
export interface ShapeModelOptions {
  /** Keep at most this many modes (default N − 1, all that carry variance). */
  readonly maxModes?: number;
  /** Modes whose eigenvalue is below this fraction of the total are dropped as rounding noise. Default 1e-12. */
  readonly relativeCutoff?: number;
}

/**
 * PCA of N aligned, corresponding shapes through the N × N Gram matrix of the centred shapes (the dual of the
 * 3V × 3V covariance, Cootes et al. 1995, appendix): with uₖ, sₖ² the Gram eigenpairs, φₖ = Xᵀuₖ / sₖ. Cost
 * O(N²·3V) for the Gram matrix and O(N³) for its eigenvectors, so 100 shapes of 30k vertices take seconds.
 * Signs are fixed so that each mode's largest-magnitude component is positive.
 */
export function buildShapeModel(shapes: readonly Float64Array[], options: ShapeModelOptions = {}): ShapeModel {
  const n = shapes.length;
  const first = shapes[0];
  if (!first || n < 2) throw new SsmInputError('A shape model needs at least two shapes.');
  const d = first.length;
  if (d % 3 !== 0 || shapes.some((s) => s.length !== d))
    throw new SsmInputError('Every shape must have the same number of vertices.');
  const mean = new Float64Array(d);
  for (const s of shapes) for (let i = 0; i < d; i++) mean[i] = (mean[i] as number) + (s[i] as number);
  for (let i = 0; i < d; i++) mean[i] = (mean[i] as number) / n;
  // Column-major d × n: shape j centred in column j (contiguous), which is what gramMatrix reads.
  const x = new Float64Array(d * n);
  shapes.forEach((s, j) => {
    const o = j * d;
    for (let i = 0; i < d; i++) x[o + i] = (s[i] as number) - (mean[i] as number);
  });
  const { values, vectors } = symmetricEigen(gramMatrix(x, d, n), n);
  let total = 0;
  for (let k = 0; k < n; k++) total += Math.max(0, values[k] as number);
  const cutoff = (options.relativeCutoff ?? 1e-12) * total;
  const limit = Math.min(options.maxModes ?? n - 1, n - 1);
  let modeCount = 0;
  while (modeCount < limit && (values[modeCount] as number) > cutoff) modeCount += 1;
  const modes = new Float64Array(modeCount * d);
  const variances = new Float64Array(modeCount);
  const explained = new Float64Array(modeCount);
  const coefficients = new Float64Array(n * modeCount);
  for (let k = 0; k < modeCount; k++) {
    const s2 = values[k] as number;
    const sk = Math.sqrt(s2);
    const mode = modes.subarray(k * d, (k + 1) * d);
    for (let j = 0; j < n; j++) {
      const w = (vectors[j * n + k] as number) / sk;
      const o = j * d;
      for (let i = 0; i < d; i++) mode[i] = (mode[i] as number) + w * (x[o + i] as number);
    }
    let big = 0;
    for (let i = 0; i < d; i++) if (Math.abs(mode[i] as number) > Math.abs(big)) big = mode[i] as number;
    const sign = big < 0 ? -1 : 1;
    if (sign < 0) for (let i = 0; i < d; i++) mode[i] = -(mode[i] as number);
    variances[k] = s2 / (n - 1);
    explained[k] = s2 / total;
    for (let j = 0; j < n; j++) coefficients[j * modeCount + k] = sign * sk * (vectors[j * n + k] as number);
  }
  return { shapeCount: n, vertexCount: d / 3, mean, modes, modeCount, variances, explained, coefficients };
}

/**
 * A shape of the model: mean + Σₖ zₖ·√λₖ·φₖ with zₖ = `standardDeviations[k]` (missing ones 0), packed xyz in mm.
 * Allocation-free with `out` (Float32Array for a renderer): 30k vertices and a few modes are well under a frame.
 */
export function modelInstance(model: ShapeBasis, standardDeviations: ArrayLike<number>): Float64Array;
export function modelInstance<T extends Float32Array | Float64Array>(
  model: ShapeBasis,
  standardDeviations: ArrayLike<number>,
  out: T,
): T;
export function modelInstance(
  model: ShapeBasis,
  standardDeviations: ArrayLike<number>,
  out?: Float32Array | Float64Array,
): Float32Array | Float64Array {
  const d = model.mean.length;
  const target = out ?? new Float64Array(d);
  if (target.length !== d) throw new SsmInputError('The output must hold every vertex of the model.');
  target.set(model.mean);
  const count = Math.min(standardDeviations.length, model.modeCount);
  for (let k = 0; k < count; k++) {
    const z = standardDeviations[k] ?? 0;
    if (!Number.isFinite(z)) throw new SsmInputError('A mode position must be a finite number of standard deviations.');
    if (z === 0) continue;
    const w = z * Math.sqrt(model.variances[k] as number);
    const o = k * d;
    for (let i = 0; i < d; i++) target[i] = (target[i] as number) + w * (model.modes[o + i] as number);
  }
  return target;
}

/** The coefficients bₖ = φₖ·(x − mean) (mm) of a shape in the first `modes` modes (default all). */
export function projectShape(model: ShapeBasis, shape: Float64Array, modes: number = model.modeCount): Float64Array {
  const d = model.mean.length;
  if (shape.length !== d) throw new SsmInputError('The shape must have the same number of vertices as the model.');
  const count = Math.min(modes, model.modeCount);
  const b = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const o = k * d;
    let s = 0;
    for (let i = 0; i < d; i++)
      s += (model.modes[o + i] as number) * ((shape[i] as number) - (model.mean[i] as number));
    b[k] = s;
  }
  return b;
}
