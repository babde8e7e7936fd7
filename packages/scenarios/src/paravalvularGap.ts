import { sectionSegments, type TriangleMesh, type Vec3 } from '@insilico/mesh';

/**
 * Paravalvular gap area (issue 17, solid outcomes): in the annulus plane, the area inside the anatomy's lumen and
 * outside the expanded device — where blood can pass around a valve that does not seal. The lumen is the anatomy
 * mesh's section with the plane (exact polygon); the device's outer contour comes from its particles at the end of
 * the run (those within one spacing of the plane, each reaching dp/2 beyond its centre, as the engine measures the
 * device's diameter). Both contours are taken as star-shaped about the device section's centre (true of an annulus
 * and of a tubular device in it): along each direction θ the lumen reaches r_L(θ) and the device r_D(θ), and
 *   gap = ∫ ½ max(0, r_L(θ)² − r_D(θ)²) dθ
 * over 0…2π, by the midpoint rule in `directions` steps. See docs/decisions/trials.md ("Paravalvular gap area").
 */
export interface GapInput {
  /** The anatomy's lumen surface (closed, mm), e.g. the aortic root. */
  readonly lumen: TriangleMesh;
  /** The plane: a point on it and its normal (mm, any length). */
  readonly point: Vec3;
  readonly normal: Vec3;
  /** The device's particle positions at the end of the run, mm: x of every particle, then y, then z. */
  readonly device: { readonly x: ArrayLike<number>; readonly y: ArrayLike<number>; readonly z: ArrayLike<number> };
  /** The device's particle spacing, mm. */
  readonly dp_mm: number;
  /** Directions of the integration (default 3,600: 0.1° apart). */
  readonly directions?: number;
}

export type GapResult =
  | { readonly ok: true; readonly gap_mm2: number; readonly lumen_mm2: number }
  | { readonly ok: false; readonly reason: string };

/** Two unit vectors spanning the plane with unit normal n. */
function planeBasis(n: Vec3): [Vec3, Vec3] {
  const a: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const along = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
  const u0: Vec3 = [a[0] - along * n[0], a[1] - along * n[1], a[2] - along * n[2]];
  const l = Math.hypot(...u0);
  const u: Vec3 = [u0[0] / l, u0[1] / l, u0[2] / l];
  return [u, [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]]];
}

/**
 * The device's outer contour in the plane's coordinates about `centre`: per angular bin the farthest particle (its
 * angle and radius + dp/2), sorted by angle. Bins about two spacings wide along the contour, so that every bin holds
 * a particle of a closed ring; an empty bin (a hole between struts) is bridged by its neighbours.
 */
export function deviceContour(
  points: readonly (readonly [number, number])[],
  centre: readonly [number, number],
  dp: number,
): { angle: number; radius: number }[] {
  let mean = 0;
  for (const [x, y] of points) mean += Math.hypot(x - centre[0], y - centre[1]);
  mean /= Math.max(1, points.length);
  const bins = Math.max(12, Math.min(720, Math.round((Math.PI * mean) / dp)));
  const best: ({ angle: number; radius: number } | undefined)[] = new Array<undefined>(bins).fill(undefined);
  for (const [x, y] of points) {
    const dx = x - centre[0];
    const dy = y - centre[1];
    const angle = Math.atan2(dy, dx);
    const radius = Math.hypot(dx, dy) + dp / 2;
    const b = Math.min(bins - 1, Math.floor(((angle + Math.PI) / (2 * Math.PI)) * bins));
    const held = best[b];
    if (!held || radius > held.radius) best[b] = { angle, radius };
  }
  return best.filter((v): v is { angle: number; radius: number } => v !== undefined);
}

/** The contour's radius along θ: linear in θ between its neighbouring vertices (cyclic). */
function radiusAlong(contour: readonly { angle: number; radius: number }[], theta: number): number {
  const n = contour.length;
  if (n === 1) return contour[0]!.radius;
  // The first vertex at an angle above θ (contour sorted by angle in −π…π).
  let hi = contour.findIndex((c) => c.angle > theta);
  if (hi < 0) hi = 0;
  const lo = (hi - 1 + n) % n;
  const a = contour[lo]!;
  const b = contour[hi]!;
  let span = b.angle - a.angle;
  if (span <= 0) span += 2 * Math.PI;
  let offset = theta - a.angle;
  if (offset < 0) offset += 2 * Math.PI;
  const w = span > 0 ? Math.min(1, offset / span) : 0;
  return a.radius + w * (b.radius - a.radius);
}

/**
 * The nearest crossing of the ray from `centre` along (cos θ, sin θ) with the lumen's section segments (2D, as
 * [px, py, qx, qy]); Infinity when the ray meets none (the centre lies outside the lumen, or the section is open).
 */
function lumenRadius(segments: Float64Array, centre: readonly [number, number], theta: number): number {
  const dx = Math.cos(theta);
  const dy = Math.sin(theta);
  let nearest = Infinity;
  for (let k = 0; k < segments.length; k += 4) {
    const px = segments[k]! - centre[0];
    const py = segments[k + 1]! - centre[1];
    const ex = segments[k + 2]! - centre[0] - px;
    const ey = segments[k + 3]! - centre[1] - py;
    // Ray t·d = p + s·e, 0 ≤ s ≤ 1, t > 0.
    const det = ex * dy - ey * dx;
    if (det === 0) continue;
    const t = (ex * py - ey * px) / det;
    const s = (dx * py - dy * px) / det;
    if (s >= 0 && s <= 1 && t > 0 && t < nearest) nearest = t;
  }
  return nearest;
}

/**
 * The area (mm²) between a lumen section (2D segments) and a device contour about `centre`:
 * ∫ ½ max(0, r_L² − r_D²) dθ, midpoint rule; with the lumen's area the same way (∫ ½ r_L² dθ). Null when a
 * direction from the centre meets no lumen wall.
 */
export function gapBetween(
  segments: Float64Array,
  centre: readonly [number, number],
  deviceRadius: (theta: number) => number,
  directions = 3600,
): { gap_mm2: number; lumen_mm2: number } | null {
  const step = (2 * Math.PI) / directions;
  let gap = 0;
  let lumen = 0;
  for (let k = 0; k < directions; k++) {
    const theta = -Math.PI + (k + 0.5) * step;
    const rL = lumenRadius(segments, centre, theta);
    if (!Number.isFinite(rL)) return null;
    const rD = deviceRadius(theta);
    lumen += 0.5 * rL * rL * step;
    if (rL > rD) gap += 0.5 * (rL * rL - rD * rD) * step;
  }
  return { gap_mm2: gap, lumen_mm2: lumen };
}

/** The paravalvular gap area of a device in the anatomy at a plane (see the module's comment). */
export function paravalvularGapArea(input: GapInput): GapResult {
  const length = Math.hypot(...input.normal);
  const n: Vec3 = [input.normal[0] / length, input.normal[1] / length, input.normal[2] / length];
  const [u, v] = planeBasis(n);
  const [ox, oy, oz] = input.point;
  const dp = input.dp_mm;
  const points: [number, number][] = [];
  const { x, y, z } = input.device;
  for (let i = 0; i < x.length; i++) {
    const rx = x[i]! - ox;
    const ry = y[i]! - oy;
    const rz = z[i]! - oz;
    if (Math.abs(rx * n[0] + ry * n[1] + rz * n[2]) > dp) continue;
    points.push([rx * u[0] + ry * u[1] + rz * u[2], rx * v[0] + ry * v[1] + rz * v[2]]);
  }
  if (points.length === 0)
    return { ok: false, reason: 'The device does not reach the annulus plane at the end of the run.' };
  const centre: [number, number] = [0, 0];
  for (const [px, py] of points) {
    centre[0] += px / points.length;
    centre[1] += py / points.length;
  }
  const cut = sectionSegments(input.lumen, input.point, n);
  const segments = new Float64Array((cut.length / 6) * 4);
  for (let k = 0, j = 0; k < cut.length; k += 6, j += 4) {
    segments[j] = cut[k]! * u[0] + cut[k + 1]! * u[1] + cut[k + 2]! * u[2];
    segments[j + 1] = cut[k]! * v[0] + cut[k + 1]! * v[1] + cut[k + 2]! * v[2];
    segments[j + 2] = cut[k + 3]! * u[0] + cut[k + 4]! * u[1] + cut[k + 5]! * u[2];
    segments[j + 3] = cut[k + 3]! * v[0] + cut[k + 4]! * v[1] + cut[k + 5]! * v[2];
  }
  const contour = deviceContour(points, centre, dp);
  const result = gapBetween(segments, centre, (theta) => radiusAlong(contour, theta), input.directions);
  if (!result)
    return { ok: false, reason: 'The annulus plane does not cut a lumen wall all around the device’s centre.' };
  return { ok: true, ...result };
}
