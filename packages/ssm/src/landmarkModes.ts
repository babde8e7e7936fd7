import { SsmInputError } from './errors';

/**
 * Landmarks as part of the model (Cootes et al. 1995, landmarks in the shape vector): each landmark's vectors
 * (its position, and its normal and axis where it has them) regressed on the shapes' mode coefficients, so that an
 * instance carries them as it carries its vertices. With bⱼₖ = φₖ·(xⱼ − x̄) the coefficients of the training shapes
 * and ℓⱼ their landmark vectors (aligned with them), the change of ℓ per standard deviation of mode k is
 *
 *   ψₖ = Σⱼ (ℓⱼ − ℓ̄) bⱼₖ / ((N − 1) √λₖ),
 *
 * the landmark part of the mode φₖ had the landmarks been in the PCA (φₖ = X uₖ / sₖ, λₖ = sₖ² / (N − 1)): a
 * training shape's coefficients give back its own landmarks exactly when every mode is kept. Answers ψ as K rows of
 * 3m numbers (m vectors), row k = mode k + 1.
 */
export function landmarkModes(
  coefficients: readonly ArrayLike<number>[],
  variances: ArrayLike<number>,
  vectors: readonly ArrayLike<number>[],
): Float64Array[] {
  const n = coefficients.length;
  if (n < 2 || vectors.length !== n) throw new SsmInputError('Give the landmarks of every shape of the model.');
  const width = vectors[0]?.length ?? 0;
  if (vectors.some((v) => v.length !== width)) throw new SsmInputError('Every shape must have the same landmarks.');
  const mean = new Float64Array(width);
  for (const v of vectors) for (let i = 0; i < width; i++) mean[i] = (mean[i] as number) + (v[i] as number) / n;
  return Array.from({ length: variances.length }, (_, k) => {
    const row = new Float64Array(width);
    const scale = 1 / ((n - 1) * Math.sqrt(variances[k] as number));
    coefficients.forEach((b, j) => {
      const w = (b[k] ?? 0) * scale;
      const v = vectors[j] as ArrayLike<number>;
      for (let i = 0; i < width; i++) row[i] = (row[i] as number) + w * ((v[i] as number) - (mean[i] as number));
    });
    return row;
  });
}

/** Landmark vectors at standard deviations per mode: ℓ̄ + Σ zₖ ψₖ (modes beyond `modes` count as 0). */
export function landmarksAt(
  mean: ArrayLike<number>,
  modes: readonly ArrayLike<number>[],
  standardDeviations: ArrayLike<number>,
): Float64Array {
  const out = Float64Array.from(mean);
  const count = Math.min(standardDeviations.length, modes.length);
  for (let k = 0; k < count; k++) {
    const z = standardDeviations[k] ?? 0;
    if (z === 0) continue;
    const row = modes[k] as ArrayLike<number>;
    if (row.length !== out.length) throw new SsmInputError('A landmark mode has the wrong number of values.');
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + z * (row[i] as number);
  }
  return out;
}
