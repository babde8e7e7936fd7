import type { Vec3 } from '@insilico/mesh';
import type { Plane } from './plane';
import { distance, dot, sub, unit } from './vec3';

const DEG = 180 / Math.PI;

/** Angle (degrees, 0–180) at `vertex` between the rays to `a` and `b`; undefined when a ray has no length. */
export function angleAt_deg(vertex: Vec3, a: Vec3, b: Vec3): number | undefined {
  const u = unit(sub(a, vertex));
  const w = unit(sub(b, vertex));
  if (u === undefined || w === undefined) return undefined;
  // atan2 of |u × w| and u · w stays accurate near 0° and 180°, where acos loses digits.
  const cx = u[1] * w[2] - u[2] * w[1];
  const cy = u[2] * w[0] - u[0] * w[2];
  const cz = u[0] * w[1] - u[1] * w[0];
  return Math.atan2(Math.hypot(cx, cy, cz), dot(u, w)) * DEG;
}

/** Angle (degrees, 0–90) between two planes, i.e. between their normals regardless of their sense. */
export function planeAngle_deg(a: Plane, b: Plane): number {
  const angle = angleAt_deg([0, 0, 0], a.normal, b.normal) as number;
  return angle > 90 ? 180 - angle : angle;
}

/** Length (mm) of the polyline through `points` in order. */
export function curveLength_mm(points: readonly Vec3[]): number {
  let length = 0;
  for (let i = 1; i < points.length; i++) length += distance(points[i - 1] as Vec3, points[i] as Vec3);
  return length;
}
