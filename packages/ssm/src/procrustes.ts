import { symmetricEigen } from '@insilico/stats';
import { SsmInputError } from './errors';

/** A similarity transform x ↦ scale · R · (x − from) + to; `rotation` is row-major 3 × 3. */
export interface ProcrustesTransform {
  readonly rotation: Float64Array;
  readonly scale: number;
  /** Centroid of the shape before alignment, mm. */
  readonly from: readonly [number, number, number];
  /** Where that centroid goes, mm. */
  readonly to: readonly [number, number, number];
}

/** Centroid (mean of the vertices) of packed xyz positions, mm. */
export function centroid(positions: Float64Array): [number, number, number] {
  const n = positions.length / 3;
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < positions.length; i += 3) {
    x += positions[i] as number;
    y += positions[i + 1] as number;
    z += positions[i + 2] as number;
  }
  return [x / n, y / n, z / n];
}

/**
 * The rotation R (row-major 3 × 3) minimising Σ‖R·aᵢ − bᵢ‖² for centred point sets a (moving) and b (target) of
 * equal length: Horn's unit-quaternion solution (J. Opt. Soc. Am. A 4(4), 1987), the eigenvector of the largest
 * eigenvalue of a 4 × 4 symmetric matrix, which never returns a reflection.
 */
export function optimalRotation(moving: Float64Array, target: Float64Array): Float64Array {
  let sxx = 0,
    sxy = 0,
    sxz = 0,
    syx = 0,
    syy = 0,
    syz = 0,
    szx = 0,
    szy = 0,
    szz = 0;
  for (let i = 0; i < moving.length; i += 3) {
    const ax = moving[i] as number;
    const ay = moving[i + 1] as number;
    const az = moving[i + 2] as number;
    const bx = target[i] as number;
    const by = target[i + 1] as number;
    const bz = target[i + 2] as number;
    sxx += ax * bx;
    sxy += ax * by;
    sxz += ax * bz;
    syx += ay * bx;
    syy += ay * by;
    syz += ay * bz;
    szx += az * bx;
    szy += az * by;
    szz += az * bz;
  }
  const n = Float64Array.from([
    sxx + syy + szz, syz - szy, szx - sxz, sxy - syx,
    syz - szy, sxx - syy - szz, sxy + syx, szx + sxz,
    szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy,
    sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz,
  ]); // prettier-ignore
  const { vectors } = symmetricEigen(n, 4);
  const q0 = vectors[0] as number;
  const qx = vectors[4] as number;
  const qy = vectors[8] as number;
  const qz = vectors[12] as number;
  return Float64Array.from([
    q0 * q0 + qx * qx - qy * qy - qz * qz, 2 * (qx * qy - q0 * qz), 2 * (qx * qz + q0 * qy),
    2 * (qy * qx + q0 * qz), q0 * q0 - qx * qx + qy * qy - qz * qz, 2 * (qy * qz - q0 * qx),
    2 * (qz * qx - q0 * qy), 2 * (qz * qy + q0 * qx), q0 * q0 - qx * qx - qy * qy + qz * qz,
  ]); // prettier-ignore
}

/** Applies a {@link ProcrustesTransform} to packed xyz positions into `out` (may be `positions`). */
export function applyTransform(
  positions: Float64Array,
  t: ProcrustesTransform,
  out: Float64Array = new Float64Array(positions.length),
): Float64Array {
  const r = t.rotation;
  const [fx, fy, fz] = t.from;
  const [tx, ty, tz] = t.to;
  for (let i = 0; i < positions.length; i += 3) {
    const x = (positions[i] as number) - fx;
    const y = (positions[i + 1] as number) - fy;
    const z = (positions[i + 2] as number) - fz;
    out[i] = t.scale * ((r[0] as number) * x + (r[1] as number) * y + (r[2] as number) * z) + tx;
    out[i + 1] = t.scale * ((r[3] as number) * x + (r[4] as number) * y + (r[5] as number) * z) + ty;
    out[i + 2] = t.scale * ((r[6] as number) * x + (r[7] as number) * y + (r[8] as number) * z) + tz;
  }
  return out;
}

/**
 * The similarity transform taking `moving` closest (least squares over corresponding vertices) to `target`:
 * centroids matched, Horn's rotation, and with `allowScale` the scale Σ bᵢ·R·aᵢ / Σ‖aᵢ‖² (otherwise 1).
 */
export function procrustesTransform(
  moving: Float64Array,
  target: Float64Array,
  allowScale: boolean,
): ProcrustesTransform {
  if (moving.length !== target.length || moving.length % 3 !== 0)
    throw new SsmInputError('Procrustes alignment needs two shapes with the same number of vertices.');
  const from = centroid(moving);
  const to = centroid(target);
  const a = shifted(moving, from);
  const b = shifted(target, to);
  const rotation = optimalRotation(a, b);
  let scale = 1;
  if (allowScale) {
    const rotated = applyTransform(a, { rotation, scale: 1, from: [0, 0, 0], to: [0, 0, 0] });
    let num = 0;
    let den = 0;
    for (let i = 0; i < a.length; i++) {
      num += (b[i] as number) * (rotated[i] as number);
      den += (a[i] as number) ** 2;
    }
    if (!(den > 0)) throw new SsmInputError('A shape has all its vertices at one point.');
    scale = num / den;
  }
  return { rotation, scale, from, to };
}

/** Options of {@link generalisedProcrustes}. */
export interface ProcrustesOptions {
  /** Also remove size (similarity instead of rigid). Default false: sizes in mm are kept, a device is sized on them. */
  readonly scale?: boolean;
  /** Index of the shape that sets the frame (and, with scale, the size). Default 0. */
  readonly reference?: number;
  /** Stop when the mean moves less than this fraction of its RMS radius. Default 1e-10. */
  readonly tolerance?: number;
  /** Default 100. */
  readonly maxIterations?: number;
}

/** The outcome of {@link generalisedProcrustes}. */
export interface ProcrustesAlignment {
  /** Each shape after its transform, mm. */
  readonly aligned: Float64Array[];
  readonly transforms: ProcrustesTransform[];
  /** The mean of the aligned shapes, mm. */
  readonly mean: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * Generalised Procrustes alignment (Gower 1975; Dryden & Mardia, Statistical Shape Analysis, §7.3): start from the
 * reference shape centred at the origin, align every shape to the current mean, recompute the mean, repeat until
 * the mean stops moving. With `scale` the mean is brought back to the reference's centroid size at each pass (the
 * trivial solution of shrinking every shape to a point is avoided, and the unit stays mm).
 */
export function generalisedProcrustes(
  shapes: readonly Float64Array[],
  options: ProcrustesOptions = {},
): ProcrustesAlignment {
  const allowScale = options.scale ?? false;
  const referenceIndex = options.reference ?? 0;
  const tolerance = options.tolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 100;
  const reference = shapes[referenceIndex];
  if (!reference) throw new SsmInputError('The reference shape is not among the shapes.');
  const length = reference.length;
  if (shapes.some((s) => s.length !== length))
    throw new SsmInputError('Procrustes alignment needs shapes with the same number of vertices.');
  let mean = shifted(reference, centroid(reference));
  const size = centroidSize(mean);
  if (!(size > 0)) throw new SsmInputError('The reference shape has all its vertices at one point.');
  let transforms: ProcrustesTransform[] = [];
  let aligned: Float64Array[] = [];
  let converged = false;
  let iterations = 0;
  while (iterations < maxIterations && !converged) {
    iterations += 1;
    transforms = shapes.map((s) => procrustesTransform(s, mean, allowScale));
    aligned = shapes.map((s, k) => applyTransform(s, transforms[k] as ProcrustesTransform));
    const next = new Float64Array(length);
    for (const s of aligned) for (let i = 0; i < length; i++) next[i] = (next[i] as number) + (s[i] as number);
    for (let i = 0; i < length; i++) next[i] = (next[i] as number) / shapes.length;
    if (allowScale) {
      const factor = size / centroidSize(next);
      for (let i = 0; i < length; i++) next[i] = (next[i] as number) * factor;
    }
    let moved = 0;
    for (let i = 0; i < length; i++) moved += ((next[i] as number) - (mean[i] as number)) ** 2;
    converged = Math.sqrt(moved) <= tolerance * size;
    mean = next;
  }
  return { aligned, transforms, mean, iterations, converged };
}

/** √Σ‖xᵢ − centroid‖², mm (Dryden & Mardia's centroid size). */
export function centroidSize(positions: Float64Array): number {
  const c = centroid(positions);
  let s = 0;
  for (let i = 0; i < positions.length; i += 3) {
    s += ((positions[i] as number) - c[0]) ** 2;
    s += ((positions[i + 1] as number) - c[1]) ** 2;
    s += ((positions[i + 2] as number) - c[2]) ** 2;
  }
  return Math.sqrt(s);
}

function shifted(positions: Float64Array, by: readonly [number, number, number]): Float64Array {
  const out = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    out[i] = (positions[i] as number) - by[0];
    out[i + 1] = (positions[i + 1] as number) - by[1];
    out[i + 2] = (positions[i + 2] as number) - by[2];
  }
  return out;
}
