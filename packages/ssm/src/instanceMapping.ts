import { modelInstance, projectShape, type ShapeBasis } from './pca';
import { applyTransform, procrustesTransform } from './procrustes';
import { SsmInputError } from './errors';

/** Largest |SD| a mapped instance keeps per mode (the sliders' and labels' range). */
const MAX_DEVIATION = 3;

/** A named instance of one model expressed in another (a rebuild's next version). */
export interface MappedInstance {
  /** Standard deviations per mode of the new model, to 0.01 SD, within ±3 SD, trailing zeros left out. */
  deviations: number[];
  /** The modes whose value was cut to ±3 SD (1-based). */
  clampedModes: number[];
  /** Mean distance (mm) per vertex between the old shape and its mapped shape in the new model. */
  residual_mm: number;
}

/**
 * A shape of model `from` (standard deviations per mode) as a shape of model `to`: the shape is drawn in `from`,
 * moved rigidly onto `to`'s mean (Procrustes without scaling: the two models' frames may differ by a rigid motion,
 * e.g. another reference patient), and projected on `to`'s modes (bₖ = φₖ·(x − mean), zₖ = bₖ/√λₖ). Geometry decides,
 * not mode numbers, so a mode whose sign flipped between builds is mapped right, and what `to` cannot express (fewer
 * modes, other patients) shows as the residual. The models must share one vertex layout (corresponding vertices).
 * @throws SsmInputError when the models' vertex counts differ.
 */
export function mapInstance(from: ShapeBasis, to: ShapeBasis, deviations: readonly number[]): MappedInstance {
  if (from.mean.length !== to.mean.length)
    throw new SsmInputError(
      `The models do not share one vertex layout (${from.mean.length / 3} and ${to.mean.length / 3} vertices).`,
    );
  const drawn = modelInstance(from, deviations);
  const shape = applyTransform(drawn, procrustesTransform(drawn, to.mean, false));
  const coefficients = projectShape(to, shape);
  const clampedModes: number[] = [];
  const mapped = Array.from(coefficients, (b, k) => {
    const sd = (to.variances[k] as number) > 0 ? b / Math.sqrt(to.variances[k] as number) : 0;
    if (Math.abs(sd) > MAX_DEVIATION) clampedModes.push(k + 1);
    const kept = Math.max(-MAX_DEVIATION, Math.min(MAX_DEVIATION, sd));
    return Math.round(kept * 100) / 100 || 0;
  });
  while (mapped.length > 0 && mapped[mapped.length - 1] === 0) mapped.pop();
  const redrawn = modelInstance(to, mapped);
  let sum = 0;
  for (let i = 0; i < shape.length; i += 3)
    sum += Math.hypot(
      (shape[i] as number) - (redrawn[i] as number),
      (shape[i + 1] as number) - (redrawn[i + 1] as number),
      (shape[i + 2] as number) - (redrawn[i + 2] as number),
    );
  return { deviations: mapped, clampedModes, residual_mm: sum / (shape.length / 3) };
}

/** Standard deviations per mode as a shape's label: `mean` when all are 0, else `2,0,-1.5`. */
export function instanceLabel(deviations: readonly number[]): string {
  return deviations.some((z) => z !== 0) ? deviations.map((z) => String(z)).join(',') : 'mean';
}
