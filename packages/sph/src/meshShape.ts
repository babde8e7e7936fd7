import { boundingBox, type TriangleMesh } from '@insilico/mesh';
import type { Shape } from './geometry';
import { meshDistance } from './meshDistance';

/**
 * A closed triangle mesh (e.g. read from STL with `readStl` of @insilico/mesh) as a `Shape` for lattice filling.
 *
 * Inside test by ray parity: a ray from the point along +x crosses a closed surface an odd number of times from
 * inside. Rays through an edge or a vertex shared by several triangles (common: a lattice line through a cube face's
 * diagonal) are resolved by simulation of simplicity: the point is moved by the infinitesimal (0, δ, δ²), which makes
 * every crossing test decided and consistent between the triangles that share an edge, so such a crossing counts
 * exactly once. Triangles are bucketed on a grid over the (y, z) plane, so a query tests only the triangles whose
 * (y, z) bounds cover the point. A point exactly on the surface may count as inside or outside. The signed distance
 * (for particle relaxation) is the exact distance to the nearest triangle (`meshDistance`), negative inside.
 */
export interface MeshShapeOptions {
  /** Factor from mesh coordinates to metres (default 0.001: STL coordinates in mm). */
  scale?: number;
  /** Translation added after scaling, m (default none). */
  offset?: readonly [number, number, number];
}

/** A closed mesh as a shape, with the nearest point of its surface. */
export interface MeshShape extends Shape {
  /**
   * Unsigned distance (m) from the point to the surface; the nearest surface point goes to `out` (when the distance is
   * within `band`, m; default: any distance), and the index of its triangle to `triangle[0]` when given.
   */
  nearest(x: number, y: number, z: number, out: [number, number, number], band?: number, triangle?: Int32Array): number;
}

/**
 * Sign of the edge function of edge a → b at p in the (y, z) plane, perturbed by p + (0, δ, δ²) when zero. The two
 * triangles that share an edge see it in opposite directions; the function is evaluated with the endpoints in one
 * canonical order and negated for the other, so that the two signs are exact opposites even where rounding decides
 * (a point within rounding of the edge would otherwise count for both triangles or for neither).
 */
function edgeSign(ay: number, az: number, by: number, bz: number, py: number, pz: number): number {
  if (ay > by || (ay === by && az > bz)) return -orderedEdgeSign(by, bz, ay, az, py, pz);
  return orderedEdgeSign(ay, az, by, bz, py, pz);
}

function orderedEdgeSign(ay: number, az: number, by: number, bz: number, py: number, pz: number): number {
  const e = (by - ay) * (pz - az) - (bz - az) * (py - ay);
  if (e !== 0) return e > 0 ? 1 : -1;
  // e(δ) = e − (bz − az)·δ + (by − ay)·δ²: the first non-zero coefficient decides.
  if (bz !== az) return bz > az ? -1 : 1;
  if (by !== ay) return by > ay ? 1 : -1;
  return 0;
}

/** Builds the shape of the closed mesh `mesh` (coordinates × `scale` + `offset`, in m). */
export function meshShape(mesh: TriangleMesh, options: MeshShapeOptions = {}): MeshShape {
  const scale = options.scale ?? 1e-3;
  const [ox, oy, oz] = options.offset ?? [0, 0, 0];
  const src = mesh.positions;
  const nv = src.length / 3;
  const p = new Float64Array(src.length);
  for (let v = 0; v < nv; v++) {
    p[3 * v] = src[3 * v]! * scale + ox;
    p[3 * v + 1] = src[3 * v + 1]! * scale + oy;
    p[3 * v + 2] = src[3 * v + 2]! * scale + oz;
  }
  const tri = mesh.indices;
  const nt = tri.length / 3;
  if (nt === 0) throw new Error('the mesh has no triangles');
  const box = boundingBox(p);
  const lower: [number, number, number] = [box.min[0], box.min[1], box.min[2]];
  const upper: [number, number, number] = [box.max[0], box.max[1], box.max[2]];
  // Bucket grid over (y, z): about one triangle per cell along each axis for a closed surface.
  const g = Math.max(1, Math.min(256, Math.ceil(Math.sqrt(nt))));
  const sy = (upper[1] - lower[1]) / g || 1;
  const sz = (upper[2] - lower[2]) / g || 1;
  const cellOf = (v: number, lo: number, s: number): number => Math.min(g - 1, Math.max(0, Math.floor((v - lo) / s)));
  const counts = new Int32Array(g * g + 1);
  const span = (t: number): [number, number, number, number] => {
    let y0 = Infinity;
    let y1 = -Infinity;
    let z0 = Infinity;
    let z1 = -Infinity;
    for (let c = 0; c < 3; c++) {
      const v = tri[3 * t + c]!;
      y0 = Math.min(y0, p[3 * v + 1]!);
      y1 = Math.max(y1, p[3 * v + 1]!);
      z0 = Math.min(z0, p[3 * v + 2]!);
      z1 = Math.max(z1, p[3 * v + 2]!);
    }
    return [cellOf(y0, lower[1], sy), cellOf(y1, lower[1], sy), cellOf(z0, lower[2], sz), cellOf(z1, lower[2], sz)];
  };
  const spans = Array.from({ length: nt }, (_, t) => span(t));
  for (const [j0, j1, k0, k1] of spans) {
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) counts[k * g + j + 1]!++;
  }
  for (let c = 0; c < g * g; c++) counts[c + 1] = counts[c + 1]! + counts[c]!;
  const bucket = new Int32Array(counts[g * g]!);
  const fill = counts.slice(0, g * g);
  spans.forEach(([j0, j1, k0, k1], t) => {
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) bucket[fill[k * g + j]!++] = t;
  });

  const contains = (x: number, y: number, z: number): boolean => {
    if (x <= lower[0] || x >= upper[0] || y <= lower[1] || y >= upper[1] || z <= lower[2] || z >= upper[2]) {
      return false;
    }
    const c = cellOf(z, lower[2], sz) * g + cellOf(y, lower[1], sy);
    let crossings = 0;
    for (let b = counts[c]!; b < counts[c + 1]!; b++) {
      const t = bucket[b]!;
      const a = 3 * tri[3 * t]!;
      const bb = 3 * tri[3 * t + 1]!;
      const cc = 3 * tri[3 * t + 2]!;
      const ay = p[a + 1]!;
      const az = p[a + 2]!;
      const by = p[bb + 1]!;
      const bz = p[bb + 2]!;
      const cy = p[cc + 1]!;
      const cz = p[cc + 2]!;
      // Twice the signed area of the (y, z) projection = the x component of the triangle normal.
      const nx = (by - ay) * (cz - az) - (bz - az) * (cy - ay);
      if (nx === 0) continue; // parallel to the ray: a generic ray does not cross it
      const s = nx > 0 ? 1 : -1;
      if (edgeSign(ay, az, by, bz, y, z) !== s) continue;
      if (edgeSign(by, bz, cy, cz, y, z) !== s) continue;
      if (edgeSign(cy, cz, ay, az, y, z) !== s) continue;
      // Crossing point on the triangle's plane: n · (q − a) = 0 with q = (xq, y, z).
      const ax = p[a]!;
      const ux = p[bb]! - ax;
      const vx = p[cc]! - ax;
      const ny = (bz - az) * vx - ux * (cz - az);
      const nz = ux * (cy - ay) - (by - ay) * vx;
      const xq = ax - (ny * (y - ay) + nz * (z - az)) / nx;
      if (xq > x) crossings++;
    }
    return (crossings & 1) === 1;
  };
  const unsigned = meshDistance(p, tri, lower, upper);
  const distance = (x: number, y: number, z: number, band?: number): number => {
    const d = unsigned(x, y, z, band);
    return contains(x, y, z) ? -d : d;
  };
  const nearest = (
    x: number,
    y: number,
    z: number,
    out: [number, number, number],
    band?: number,
    triangle?: Int32Array,
  ): number => unsigned(x, y, z, band, out, triangle);
  return { lower, upper, contains, distance, nearest };
}
