import {
  coherentPointDrift,
  CpdInputError,
  CPD_MAX_MOVING_POINTS,
  type CpdOptions,
  type TriangleMesh,
} from '@insilico/mesh';
import type { CorrespondingShapes } from './correspondence';
import { SsmInputError } from './errors';
import { buildSurfaceIndex, meanDistanceToSurface } from './surfaceDistance';

/** Options of {@link correspondByRegistration}. */
export interface RegistrationOptions {
  /** The shape whose mesh every other shape is registered to (its vertices and triangles are kept; default 0). */
  reference?: number;
  /** CPD parameters (docs/decisions/cpd-correspondence.md gives the defaults used and why). */
  cpd?: CpdOptions;
  /** Target vertices used at most per shape (every k-th vertex beyond; default 4,000): the E-step costs M × N. */
  maxTargetPoints?: number;
}

/** How one shape's registration went. */
export interface ShapeRegistration {
  iterations: number;
  converged: boolean;
  /** Mean distance (mm) of the registered reference vertices to the shape's own surface: 0 for the reference. */
  residual_mm: number;
}

/** Shapes brought into correspondence by registration, with each shape's fit. */
export interface RegisteredShapes extends CorrespondingShapes {
  reference: number;
  registrations: ShapeRegistration[];
}

/**
 * Defaults: affine CPD first, then non-rigid CPD with the paper's β = 2 and λ = 3 (in units of the shape's RMS
 * radius) on a rank-60 kernel, outlier weight 0.05 (docs/decisions/cpd-correspondence.md: narrower kernels fitted
 * the surface as well but let points slide along it).
 */
export const REGISTRATION_DEFAULTS: Required<
  Pick<CpdOptions, 'beta' | 'lambda' | 'w' | 'maxIterations' | 'tolerance' | 'rank' | 'affine'>
> = { beta: 2, lambda: 3, w: 0.05, maxIterations: 300, tolerance: 1e-7, rank: 60, affine: true };

/**
 * Correspondence by registration, for meshes that do not share a topology (organs modelled from the user's imaging):
 * the reference mesh's vertices are registered onto every other mesh's vertices by non-rigid coherent point drift,
 * and the registered vertices become that shape, so vertex i is one anatomical point on every shape and the
 * reference's triangles serve them all. Shapes must be roughly in one orientation (CPD here is non-rigid, after
 * centring and scaling; a rotation of more than a few tens of degrees is not a smooth deformation).
 * @throws SsmInputError with fewer than two shapes, a reference out of range, a reference mesh over
 *   {@link CPD_MAX_MOVING_POINTS} vertices, or points CPD refuses.
 */
export function correspondByRegistration(
  meshes: readonly TriangleMesh[],
  options: RegistrationOptions = {},
): RegisteredShapes {
  if (meshes.length < 2) throw new SsmInputError('A shape model needs at least two shapes.');
  const reference = options.reference ?? 0;
  const template = meshes[reference];
  if (!template || !Number.isInteger(reference))
    throw new SsmInputError('The reference shape is not one of the shapes.');
  const vertexCount = template.positions.length / 3;
  if (vertexCount > CPD_MAX_MOVING_POINTS)
    throw new SsmInputError(
      `The reference mesh has ${vertexCount} vertices; registration takes at most ${CPD_MAX_MOVING_POINTS}: choose a coarser reference.`,
    );
  const cpd = { ...REGISTRATION_DEFAULTS, ...options.cpd };
  const maxTarget = Math.max(4, Math.floor(options.maxTargetPoints ?? 4000));
  const moving = Float64Array.from(template.positions);
  const registrations: ShapeRegistration[] = [];
  const shapes = meshes.map((mesh, k) => {
    if (k === reference) {
      registrations.push({ iterations: 0, converged: true, residual_mm: 0 });
      return Float64Array.from(mesh.positions);
    }
    const target = Float64Array.from(mesh.positions);
    try {
      const fit = coherentPointDrift(moving, sample(target, maxTarget), cpd);
      const residual = meanDistanceToSurface(fit.positions, buildSurfaceIndex(target, Uint32Array.from(mesh.indices)));
      registrations.push({ iterations: fit.iterations, converged: fit.converged, residual_mm: residual });
      return fit.positions;
    } catch (error) {
      if (error instanceof CpdInputError) throw new SsmInputError(`Shape ${k + 1}: ${error.message}`);
      throw error;
    }
  });
  return { vertexCount, indices: Uint32Array.from(template.indices), shapes, reference, registrations };
}

/** Every k-th vertex (k the smallest giving at most `max`), so the E-step stays bounded on dense imaging meshes. */
function sample(points: Float64Array, max: number): Float64Array {
  const n = points.length / 3;
  if (n <= max) return points;
  const stride = Math.ceil(n / max);
  const out = new Float64Array(Math.ceil(n / stride) * 3);
  for (let i = 0, o = 0; i < n; i += stride, o++) out.set(points.subarray(i * 3, i * 3 + 3), o * 3);
  return out;
}
