import type { Vec3 } from '@insilico/mesh';

/** A right-handed orthonormal frame at `origin` (mm): u, v span a plane, w = u × v is its normal. */
export interface LocalFrame {
  readonly origin: Vec3;
  readonly u: Vec3;
  readonly v: Vec3;
  readonly w: Vec3;
}

/** Unit vector of `a` (any length > 0). */
export function normalize(a: Vec3): Vec3 {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
}

/** Cross product a × b. */
export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Point origin + x·u + y·v + z·w of a frame (mm). */
export function frameAt(frame: LocalFrame, x: number, y: number, z: number): Vec3 {
  const { origin: o, u, v, w } = frame;
  return [
    o[0] + x * u[0] + y * v[0] + z * w[0],
    o[1] + x * u[1] + y * v[1] + z * w[1],
    o[2] + x * u[2] + y * v[2] + z * w[2],
  ];
}

/**
 * The frame with normal `normal` whose u axis is `hint` projected into the plane (hint must not be parallel to
 * the normal); v = w × u.
 */
export function frameFromNormal(origin: Vec3, normal: Vec3, hint: Vec3): LocalFrame {
  const w = normalize(normal);
  const d = hint[0] * w[0] + hint[1] * w[1] + hint[2] * w[2];
  const u = normalize([hint[0] - d * w[0], hint[1] - d * w[1], hint[2] - d * w[2]]);
  return { origin, u, v: cross(w, u), w };
}

/** Writes origin + x·u + y·v + z·w (mm) into out[offset..offset+2] without allocating. */
export function writeFramePoint(
  frame: LocalFrame,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
  offset: number,
): void {
  const { origin: o, u, v, w } = frame;
  out[offset] = o[0] + x * u[0] + y * v[0] + z * w[0];
  out[offset + 1] = o[1] + x * u[1] + y * v[1] + z * w[1];
  out[offset + 2] = o[2] + x * u[2] + y * v[2] + z * w[2];
}
