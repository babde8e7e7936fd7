import {
  coherentPointDrift,
  CpdInputError,
  CPD_MAX_MOVING_POINTS,
  farthestPointSample,
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
  /** Target vertices used at most per shape (every k-th vertex beyond; default 1,500): the E-step costs M × N. */
  maxTargetPoints?: number;
  /**
   * Reference vertices fitted at most (default 400): beyond, that many well-spread ones (farthest-point sampling)
   * are registered and the others carried along by the fitted smooth field (docs/decisions/cpd-correspondence.md).
   */
  controlPoints?: number;
}

/** How one shape's registration went. */
export interface ShapeRegistration {
  /** EM iterations of the non-rigid stage. */
  iterations: number;
  /** EM iterations of the affine stage (0 without one). */
  affineIterations: number;
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
 * the surface as well but let points slide along it); the E-step neglects pairs farther apart than 6σ (terms below
 * e⁻¹⁸ of a coincident pair's; the known-warp errors agreed to better than 1e-6 mm with and without it). Speed
 * (session 18): 250 coarse target points while σ is large, the non-rigid stage continuing the affine stage's σ², and a
 * stop once no point moves more than 1e-3 of the RMS radius in an iteration (the creep beyond is sliding, not fit).
 */
export const REGISTRATION_DEFAULTS: Required<
  Pick<
    CpdOptions,
    | 'beta'
    | 'lambda'
    | 'w'
    | 'maxIterations'
    | 'tolerance'
    | 'rank'
    | 'affine'
    | 'cutoff'
    | 'coarse'
    | 'continueVariance'
    | 'motionTolerance'
  >
> = {
  beta: 2,
  lambda: 3,
  w: 0.05,
  maxIterations: 300,
  tolerance: 1e-7,
  rank: 60,
  affine: true,
  cutoff: 6,
  coarse: 250,
  continueVariance: true,
  motionTolerance: 1e-3,
};

/** How many points registration fits: reference control points and target points (see {@link RegistrationOptions}). */
export const REGISTRATION_SAMPLING = { controlPoints: 300, maxTargetPoints: 1000 };

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
  checkReference(template);
  const registrations: ShapeRegistration[] = [];
  const shapes = meshes.map((mesh, k) => {
    if (k === reference) {
      registrations.push({ iterations: 0, affineIterations: 0, converged: true, residual_mm: 0 });
      return Float64Array.from(mesh.positions);
    }
    try {
      const { positions, registration } = registerOnto(template, mesh, options);
      registrations.push(registration);
      return positions;
    } catch (error) {
      if (error instanceof SsmInputError) throw new SsmInputError(`Shape ${k + 1}: ${error.message}`);
      throw error;
    }
  });
  const vertexCount = template.positions.length / 3;
  return { vertexCount, indices: Uint32Array.from(template.indices), shapes, reference, registrations };
}

/** One shape registered: where the reference's vertices land on it, and how the fit went. */
export interface RegisteredShape {
  positions: Float64Array;
  registration: ShapeRegistration;
}

/**
 * The reference mesh `template` registered onto one `mesh` (what {@link correspondByRegistration} does per shape, with
 * the same result): the unit of work a build can run for many shapes in parallel tasks. Above 2 × `controlPoints`
 * reference vertices, a well-spread subset is fitted and the rest carried by the fitted field; above 2 ×
 * `maxTargetPoints` target vertices, a well-spread subset of them is the data (farthest-point sampling from a pool
 * hardly larger than the subset leaves an irregular pattern, which the mixture follows and points slide).
 * @throws SsmInputError for a reference mesh over {@link CPD_MAX_MOVING_POINTS} vertices or points CPD refuses.
 */
export function registerOnto(
  template: TriangleMesh,
  mesh: TriangleMesh,
  options: Omit<RegistrationOptions, 'reference'> = {},
): RegisteredShape {
  checkReference(template);
  const cpd = { ...REGISTRATION_DEFAULTS, ...options.cpd };
  const maxTarget = Math.max(4, Math.floor(options.maxTargetPoints ?? REGISTRATION_SAMPLING.maxTargetPoints));
  const controls = Math.max(4, Math.floor(options.controlPoints ?? REGISTRATION_SAMPLING.controlPoints));
  const all = Float64Array.from(template.positions);
  const carrying = all.length / 3 > 2 * controls;
  const moving = carrying ? pick(all, farthestPointSample(all, controls)) : all;
  const target = Float64Array.from(mesh.positions);
  try {
    const fit = coherentPointDrift(moving, sample(target, maxTarget), carrying ? { ...cpd, carry: all } : cpd);
    const positions = carrying ? fit.carried : fit.positions;
    const residual = meanDistanceToSurface(positions, buildSurfaceIndex(target, Uint32Array.from(mesh.indices)));
    const { iterations, affineIterations, converged } = fit;
    return { positions, registration: { iterations, affineIterations, converged, residual_mm: residual } };
  } catch (error) {
    if (error instanceof CpdInputError) throw new SsmInputError(error.message);
    throw error;
  }
}

function checkReference(template: TriangleMesh): void {
  const vertexCount = template.positions.length / 3;
  if (vertexCount > CPD_MAX_MOVING_POINTS)
    throw new SsmInputError(
      `The reference mesh has ${vertexCount} vertices; registration takes at most ${CPD_MAX_MOVING_POINTS}: choose a coarser reference.`,
    );
}

/** The points at the given indices, packed xyz. */
function pick(points: Float64Array, indices: Uint32Array): Float64Array {
  const out = new Float64Array(indices.length * 3);
  indices.forEach((v, k) => out.set(points.subarray(v * 3, v * 3 + 3), k * 3));
  return out;
}

/**
 * At most `max` of the points, well spread (farthest-point sampling): a random or every-k-th subset has clumps and
 * gaps that the Gaussian mixture follows, so points slide (docs/decisions/cpd-correspondence.md).
 */
function sample(points: Float64Array, max: number): Float64Array {
  return points.length / 3 <= 2 * max ? points : pick(points, farthestPointSample(points, max));
}
