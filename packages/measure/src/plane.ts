import type { Vec3 } from '@insilico/mesh';
import { cross, distance, dot, norm, sub, unit } from './vec3';

/** A plane: a point on it (mm) and its unit normal. */
export interface Plane {
  readonly point: Vec3;
  readonly normal: Vec3;
}

/** Smallest accepted ratio of the triangle's doubled area to its longest side squared (collinearity guard). */
const MIN_SHAPE = 1e-6;

/**
 * The plane through three points (mm): its point is their centroid, its normal (b − a) × (c − a) normalised, so
 * a, b, c counter-clockwise seen from the normal's side. Undefined when the points are (nearly) collinear or
 * coincide, i.e. when they do not define a plane.
 */
export function planeThroughPoints(a: Vec3, b: Vec3, c: Vec3): Plane | undefined {
  const n = cross(sub(b, a), sub(c, a));
  const longest = Math.max(distance(a, b), distance(b, c), distance(c, a));
  if (!(longest > 0) || norm(n) < MIN_SHAPE * longest * longest) return undefined;
  const normal = unit(n);
  if (normal === undefined) return undefined;
  return {
    point: [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3],
    normal,
  };
}

/**
 * The least distance (mm) one of three points may lie from the line through the other two for a plane through
 * them to be measured on (planes built from picked points or landmarks). A point 1 mm from where it was meant
 * (picked points are checked to within 1 mm of the surface) tilts a plane of spread h by about atan(1/h): 27° at
 * 2 mm, 6° at 10 mm; below 2 mm the points do not define a plane worth measuring on.
 */
export const MIN_PLANE_SPREAD_MM = 2;

/**
 * How far three points are from lying on one line: the distance (mm) of the point opposite the longest side from
 * the line through that side, i.e. the triangle's least altitude 2·area / longest side; 0 when two coincide.
 */
export function planeSpread_mm(a: Vec3, b: Vec3, c: Vec3): number {
  const longest = Math.max(distance(a, b), distance(b, c), distance(c, a));
  return longest > 0 ? norm(cross(sub(b, a), sub(c, a))) / longest : 0;
}

/** The plane through three points, or why they do not define one (they lie within MIN_PLANE_SPREAD_MM of a line). */
export type ThreePointPlane = { readonly plane: Plane } | { readonly spread_mm: number };

/**
 * The plane through three points as `planeThroughPoints` gives it, once they lie at least MIN_PLANE_SPREAD_MM
 * from one line (planeSpread_mm); otherwise their spread, for the caller's message.
 */
export function threePointPlane(a: Vec3, b: Vec3, c: Vec3): ThreePointPlane {
  const spread_mm = planeSpread_mm(a, b, c);
  const plane = spread_mm >= MIN_PLANE_SPREAD_MM ? planeThroughPoints(a, b, c) : undefined;
  return plane ? { plane } : { spread_mm };
}

/** Signed distance (mm) of `p` from the plane, positive on the normal's side. */
export function signedDistanceToPlane(p: Vec3, plane: Plane): number {
  return dot(sub(p, plane.point), plane.normal);
}

/** The plane moved by `offset_mm` along its normal. */
export function offsetPlane(plane: Plane, offset_mm: number): Plane {
  const [x, y, z] = plane.point;
  const [nx, ny, nz] = plane.normal;
  return { point: [x + offset_mm * nx, y + offset_mm * ny, z + offset_mm * nz], normal: plane.normal };
}

/** The orthogonal projection of `p` onto the plane. */
export function projectOntoPlane(p: Vec3, plane: Plane): Vec3 {
  const d = signedDistanceToPlane(p, plane);
  const [nx, ny, nz] = plane.normal;
  return [p[0] - d * nx, p[1] - d * ny, p[2] - d * nz];
}

/**
 * An orthonormal in-plane basis (u, v) with u × v = normal: u along `hint` projected into the plane when it is
 * not (nearly) parallel to the normal, else along the coordinate axis least aligned with the normal.
 */
export function planeBasis(plane: Plane, hint?: Vec3): { readonly u: Vec3; readonly v: Vec3 } {
  const n = plane.normal;
  const inPlane = (d: Vec3): Vec3 | undefined => unit(sub(d, [n[0] * dot(d, n), n[1] * dot(d, n), n[2] * dot(d, n)]));
  let u = hint === undefined ? undefined : inPlane(hint);
  if (u === undefined) {
    const ax = Math.abs(n[0]);
    const ay = Math.abs(n[1]);
    const az = Math.abs(n[2]);
    const axis: Vec3 = ax <= ay && ax <= az ? [1, 0, 0] : ay <= az ? [0, 1, 0] : [0, 0, 1];
    // The axis least aligned with a unit normal is never parallel to it, so the projection never vanishes.
    u = inPlane(axis) ?? axis;
  }
  return { u, v: cross(n, u) };
}
