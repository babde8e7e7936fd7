import type { PositionArray, TriangleMesh, Vec3 } from './types';

/** Perimeter and area of the cross-section of a closed mesh with a plane. */
export interface PlaneSection {
  /** Total length of the section polygon(s), mm. */
  readonly perimeter_mm: number;
  /** Enclosed area of the section polygon(s) (signed: positive for an outward-oriented mesh), mm². */
  readonly area_mm2: number;
  /** Number of triangle–plane segments. */
  readonly segments: number;
}

/** Scratch of {@link cutTriangle}: P xyz, Q xyz relative to the plane point, and +1/−1 for the lone vertex's side. */
const cut = new Float64Array(7);

/**
 * Cuts triangle (a, b, c) (offsets into `p`) with the plane through o with unit normal n. Vertices exactly on
 * the plane count as above it, so every crossing edge is split once and section polygons stay closed. On a cut,
 * writes into `cut` the crossing P on the edge from the lone vertex to its successor and Q on the edge from its
 * predecessor, relative to o, and the lone vertex's side; returns false when the triangle does not cross.
 */
function cutTriangle(p: PositionArray, a: number, b: number, c: number, o: Vec3, n: Vec3): boolean {
  const [ox, oy, oz] = o;
  const [nx, ny, nz] = n;
  const da = ((p[a] as number) - ox) * nx + ((p[a + 1] as number) - oy) * ny + ((p[a + 2] as number) - oz) * nz;
  const db = ((p[b] as number) - ox) * nx + ((p[b + 1] as number) - oy) * ny + ((p[b + 2] as number) - oz) * nz;
  const dc = ((p[c] as number) - ox) * nx + ((p[c + 1] as number) - oy) * ny + ((p[c + 2] as number) - oz) * nz;
  const sa = da >= 0;
  const sb = db >= 0;
  const sc = dc >= 0;
  if (sa === sb && sb === sc) return false;
  // The lone vertex i0 and its successor i1 and predecessor i2 in triangle order.
  let i0 = c;
  let i1 = a;
  let i2 = b;
  let d0 = dc;
  let d1 = da;
  let d2 = db;
  if (sa !== sb && sa !== sc) {
    i0 = a;
    i1 = b;
    i2 = c;
    d0 = da;
    d1 = db;
    d2 = dc;
  } else if (sb !== sa && sb !== sc) {
    i0 = b;
    i1 = c;
    i2 = a;
    d0 = db;
    d1 = dc;
    d2 = da;
  }
  const s = d0 / (d0 - d1);
  const r = d2 / (d2 - d0);
  const x0 = p[i0] as number;
  const y0 = p[i0 + 1] as number;
  const z0 = p[i0 + 2] as number;
  cut[0] = x0 + s * ((p[i1] as number) - x0) - ox;
  cut[1] = y0 + s * ((p[i1 + 1] as number) - y0) - oy;
  cut[2] = z0 + s * ((p[i1 + 2] as number) - z0) - oz;
  const x2 = p[i2] as number;
  const y2 = p[i2 + 1] as number;
  const z2 = p[i2 + 2] as number;
  cut[3] = x2 + r * (x0 - x2) - ox;
  cut[4] = y2 + r * (y0 - y2) - oy;
  cut[5] = z2 + r * (z0 - z2) - oz;
  cut[6] = d0 >= 0 ? 1 : -1;
  return true;
}

const unit = (v: Vec3): Vec3 => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
};

/**
 * Cuts a closed, outward-oriented mesh with the plane through `point` (mm) with normal `normal` (any length) and
 * measures the section: perimeter (mm) and area (mm²). Used for annulus perimeters and vessel diameters.
 */
export function planeSection(mesh: TriangleMesh, point: Vec3, normal: Vec3): PlaneSection {
  const p = mesh.positions;
  const idx = mesh.indices;
  const n = unit(normal);
  let perimeter = 0;
  let twiceArea = 0;
  let segments = 0;
  for (let t = 0; t < idx.length; t += 3) {
    if (!cutTriangle(p, (idx[t] as number) * 3, (idx[t + 1] as number) * 3, (idx[t + 2] as number) * 3, point, n))
      continue;
    const px = cut[0] as number;
    const py = cut[1] as number;
    const pz = cut[2] as number;
    const qx = cut[3] as number;
    const qy = cut[4] as number;
    const qz = cut[5] as number;
    perimeter += Math.hypot(qx - px, qy - py, qz - pz);
    // With the lone vertex above the plane the outward polygon runs P → Q counter-clockwise about +normal.
    const cross = (py * qz - pz * qy) * n[0] + (pz * qx - px * qz) * n[1] + (px * qy - py * qx) * n[2];
    twiceArea += (cut[6] as number) * cross;
    segments++;
  }
  return { perimeter_mm: perimeter, area_mm2: twiceArea / 2, segments };
}

/**
 * Length (mm) of the chord of a mesh's plane section along a line: the plane through `point` with `normal`, the
 * line through `point` along `direction` (projected into the plane). Returns the distance between the farthest
 * crossings on either side, i.e. a caliper diameter through `point`; 0 when the line misses the section.
 */
export function sectionChord_mm(mesh: TriangleMesh, point: Vec3, normal: Vec3, direction: Vec3): number {
  const p = mesh.positions;
  const idx = mesh.indices;
  const n = unit(normal);
  const dn = direction[0] * n[0] + direction[1] * n[1] + direction[2] * n[2];
  const [ux, uy, uz] = unit([direction[0] - dn * n[0], direction[1] - dn * n[1], direction[2] - dn * n[2]]);
  const vx = n[1] * uz - n[2] * uy;
  const vy = n[2] * ux - n[0] * uz;
  const vz = n[0] * uy - n[1] * ux;
  let tMin = Infinity;
  let tMax = -Infinity;
  for (let t = 0; t < idx.length; t += 3) {
    if (!cutTriangle(p, (idx[t] as number) * 3, (idx[t + 1] as number) * 3, (idx[t + 2] as number) * 3, point, n))
      continue;
    const px = cut[0] as number;
    const py = cut[1] as number;
    const pz = cut[2] as number;
    const qx = cut[3] as number;
    const qy = cut[4] as number;
    const qz = cut[5] as number;
    const pu = px * ux + py * uy + pz * uz;
    const pv = px * vx + py * vy + pz * vz;
    const qu = qx * ux + qy * uy + qz * uz;
    const qv = qx * vx + qy * vy + qz * vz;
    const tol = 1e-9 * (1 + Math.abs(pu) + Math.abs(qu));
    if ((pv > tol && qv > tol) || (pv < -tol && qv < -tol)) continue;
    let at: number;
    if (Math.abs(pv - qv) <= tol) {
      // Segment along the line: both ends count.
      if (pu < tMin) tMin = pu;
      if (pu > tMax) tMax = pu;
      at = qu;
    } else {
      const w = Math.min(1, Math.max(0, pv / (pv - qv)));
      at = pu + w * (qu - pu);
    }
    if (at < tMin) tMin = at;
    if (at > tMax) tMax = at;
  }
  return tMax > tMin ? tMax - tMin : 0;
}

/**
 * The segments of a mesh's cross-section with the plane through `point` with `normal` (any length): per segment the
 * two crossings P and Q relative to `point` (mm), as `[px, py, pz, qx, qy, qz]` one after another. For measures that
 * need the section's shape, not only its perimeter and area (e.g. a device's gap to the wall).
 */
export function sectionSegments(mesh: TriangleMesh, point: Vec3, normal: Vec3): Float64Array {
  const p = mesh.positions;
  const idx = mesh.indices;
  const n = unit(normal);
  const out: number[] = [];
  for (let t = 0; t < idx.length; t += 3) {
    if (!cutTriangle(p, (idx[t] as number) * 3, (idx[t + 1] as number) * 3, (idx[t + 2] as number) * 3, point, n))
      continue;
    for (let k = 0; k < 6; k++) out.push(cut[k] as number);
  }
  return Float64Array.from(out);
}
