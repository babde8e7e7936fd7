import type { Vec3 } from '@insilico/mesh';

/** Small 3-vector helpers of the measurement geometry (tuples, not hot loops). */

/** a − b. */
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
/** a · b. */
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** a × b. */
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
/** |a|. */
export const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
/** |a − b|, mm for points in mm. */
export const distance = (a: Vec3, b: Vec3): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
/** a scaled to unit length; undefined for a (near-)zero vector. */
export function unit(a: Vec3): Vec3 | undefined {
  const l = norm(a);
  if (!(l > 1e-12) || !Number.isFinite(l)) return undefined;
  return [a[0] / l, a[1] / l, a[2] / l];
}
/** Every component finite. */
export const isFiniteVec = (a: Vec3): boolean =>
  Number.isFinite(a[0]) && Number.isFinite(a[1]) && Number.isFinite(a[2]);
