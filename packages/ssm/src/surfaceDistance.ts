import { boundingBox } from '@insilico/mesh';
import { SsmInputError } from './errors';

/**
 * A triangle surface with a uniform grid over its triangles' bounding boxes, for nearest-point queries
 * (mm). Built once per surface; queries search cells ring by ring outwards and stop as soon as no unvisited cell
 * can hold a closer triangle.
 */
export interface SurfaceIndex {
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
  readonly origin: readonly [number, number, number];
  readonly cell: number;
  readonly dims: readonly [number, number, number];
  /** CSR: triangles of cell c are `cellTriangles[cellStart[c] … cellStart[c + 1])`. */
  readonly cellStart: Uint32Array;
  readonly cellTriangles: Uint32Array;
  /** Per-triangle stamp of the last query that tested it (no triangle tested twice in one query). */
  readonly stamp: Uint32Array;
  query: number;
}

/** Builds a {@link SurfaceIndex}. */
export function buildSurfaceIndex(positions: Float64Array, indices: Uint32Array): SurfaceIndex {
  const triangles = indices.length / 3;
  if (triangles < 1 || !Number.isInteger(triangles)) throw new SsmInputError('A surface needs at least one triangle.');
  const { min, max } = boundingBox(positions);
  const [minX, minY, minZ] = min;
  const ex = Math.max(max[0] - minX, 1e-9);
  const ey = Math.max(max[1] - minY, 1e-9);
  const ez = Math.max(max[2] - minZ, 1e-9);
  // Cells about the size of a triangle (its longest bounding-box side, on average): each triangle in a few cells.
  let side = 0;
  for (let t = 0; t < triangles; t++) {
    let longest = 0;
    for (let a = 0; a < 3; a++) {
      const p = positions[(indices[t * 3] as number) * 3 + a] as number;
      const q = positions[(indices[t * 3 + 1] as number) * 3 + a] as number;
      const r = positions[(indices[t * 3 + 2] as number) * 3 + a] as number;
      longest = Math.max(longest, Math.max(p, q, r) - Math.min(p, q, r));
    }
    side += longest;
  }
  const cell = Math.max(side / triangles, 1e-6 * Math.max(ex, ey, ez));
  const dims: [number, number, number] = [ex, ey, ez].map((e) => Math.min(256, Math.max(1, Math.ceil(e / cell)))) as [
    number,
    number,
    number,
  ];
  const origin: [number, number, number] = [minX, minY, minZ];
  const range = new Int32Array(6);
  const counts = new Uint32Array(dims[0] * dims[1] * dims[2] + 1);
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1)
      for (let c = 1; c < counts.length; c++) counts[c] = (counts[c] as number) + (counts[c - 1] as number);
    const fill = pass === 1 ? Uint32Array.from(counts) : counts;
    const cellTriangles = pass === 1 ? new Uint32Array(counts[counts.length - 1] as number) : undefined;
    for (let t = 0; t < triangles; t++) {
      triangleCells(positions, indices, t, origin, cell, dims, range);
      for (let k = range[4] as number; k <= (range[5] as number); k++)
        for (let j = range[2] as number; j <= (range[3] as number); j++)
          for (let i = range[0] as number; i <= (range[1] as number); i++) {
            const c = (k * dims[1] + j) * dims[0] + i;
            if (cellTriangles) {
              cellTriangles[fill[c] as number] = t;
              fill[c] = (fill[c] as number) + 1;
            } else counts[c + 1] = (counts[c + 1] as number) + 1;
          }
    }
    if (cellTriangles)
      return {
        positions,
        indices,
        origin,
        cell,
        dims,
        cellStart: counts,
        cellTriangles,
        stamp: new Uint32Array(triangles),
        query: 0,
      };
  }
  throw new Error('unreachable');
}

/** The cell range [i0, i1, j0, j1, k0, k1] of triangle t's bounding box, into `out`. */
function triangleCells(
  positions: Float64Array,
  indices: Uint32Array,
  t: number,
  origin: readonly [number, number, number],
  cell: number,
  dims: readonly [number, number, number],
  out: Int32Array,
): void {
  for (let a = 0; a < 3; a++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < 3; k++) {
      const v = positions[(indices[t * 3 + k] as number) * 3 + a] as number;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    out[2 * a] = clampCell(lo, origin[a] as number, cell, dims[a] as number);
    out[2 * a + 1] = clampCell(hi, origin[a] as number, cell, dims[a] as number);
  }
}

/**
 * Distance (mm) from point p to the nearest point of the indexed surface. With `upperBound`, a distance known not to
 * be exceeded (to a vertex of the surface, say), only the cells meeting the cube p ± upperBound are searched: a
 * nearer triangle meets the ball of that radius, so it is registered in one of them.
 */
export function distanceToSurface(
  index: SurfaceIndex,
  px: number,
  py: number,
  pz: number,
  upperBound = Infinity,
): number {
  index.query = (index.query + 1) >>> 0;
  if (index.query === 0) {
    index.stamp.fill(0);
    index.query = 1;
  }
  const { dims, origin, cell, cellStart, cellTriangles, stamp } = index;
  if (Number.isFinite(upperBound)) {
    const u = upperBound * (1 + 1e-12) + 1e-12;
    let best = u * u;
    const i0 = clampCell(px - u, origin[0], cell, dims[0]);
    const i1 = clampCell(px + u, origin[0], cell, dims[0]);
    const j0 = clampCell(py - u, origin[1], cell, dims[1]);
    const j1 = clampCell(py + u, origin[1], cell, dims[1]);
    const k0 = clampCell(pz - u, origin[2], cell, dims[2]);
    const k1 = clampCell(pz + u, origin[2], cell, dims[2]);
    for (let k = k0; k <= k1; k++)
      for (let j = j0; j <= j1; j++)
        for (let i = i0; i <= i1; i++) {
          const c = (k * dims[1] + j) * dims[0] + i;
          for (let m = cellStart[c] as number; m < (cellStart[c + 1] as number); m++) {
            const t = cellTriangles[m] as number;
            if (stamp[t] === index.query) continue;
            stamp[t] = index.query;
            const d2 = pointTriangleDistanceSquared(index, t, px, py, pz);
            if (d2 < best) best = d2;
          }
        }
    return Math.min(Math.sqrt(best), upperBound);
  }
  const ci = clampCell(px, origin[0], cell, dims[0]);
  const cj = clampCell(py, origin[1], cell, dims[1]);
  const ck = clampCell(pz, origin[2], cell, dims[2]);
  const maxRing = Math.max(dims[0], dims[1], dims[2]);
  let best = Infinity;
  for (let r = 0; r <= maxRing; r++) {
    for (let k = ck - r; k <= ck + r; k++) {
      if (k < 0 || k >= dims[2]) continue;
      for (let j = cj - r; j <= cj + r; j++) {
        if (j < 0 || j >= dims[1]) continue;
        const onShell = k === ck - r || k === ck + r || j === cj - r || j === cj + r;
        for (let i = ci - r; i <= ci + r; i += onShell ? 1 : 2 * r || 1) {
          if (i < 0 || i >= dims[0]) continue;
          const c = (k * dims[1] + j) * dims[0] + i;
          for (let m = cellStart[c] as number; m < (cellStart[c + 1] as number); m++) {
            const t = cellTriangles[m] as number;
            if (stamp[t] === index.query) continue;
            stamp[t] = index.query;
            const d2 = pointTriangleDistanceSquared(index, t, px, py, pz);
            if (d2 < best) best = d2;
          }
        }
      }
    }
    // No unvisited cell is nearer than the faces of the visited block that have cells beyond them.
    let bound = Infinity;
    const cs = [ci, cj, ck];
    const ps = [px, py, pz];
    for (let a = 0; a < 3; a++) {
      const c = cs[a] as number;
      const p = ps[a] as number;
      const o = origin[a] as number;
      if (c - r > 0) bound = Math.min(bound, Math.max(0, p - (o + (c - r) * cell)));
      if (c + r + 1 < (dims[a] as number)) bound = Math.min(bound, Math.max(0, o + (c + r + 1) * cell - p));
    }
    if (best <= bound * bound) break;
  }
  return Math.sqrt(best);
}

function clampCell(v: number, origin: number, cell: number, dim: number): number {
  return Math.min(dim - 1, Math.max(0, Math.floor((v - origin) / cell)));
}

/** Squared distance from p to triangle t: the closest-point regions of Ericson, Real-Time Collision Detection §5.1.5. */
function pointTriangleDistanceSquared(index: SurfaceIndex, t: number, px: number, py: number, pz: number): number {
  const { positions: v, indices } = index;
  const a = (indices[t * 3] as number) * 3;
  const b = (indices[t * 3 + 1] as number) * 3;
  const c = (indices[t * 3 + 2] as number) * 3;
  const ax = v[a] as number, ay = v[a + 1] as number, az = v[a + 2] as number; // prettier-ignore
  const abx = (v[b] as number) - ax, aby = (v[b + 1] as number) - ay, abz = (v[b + 2] as number) - az; // prettier-ignore
  const acx = (v[c] as number) - ax, acy = (v[c + 1] as number) - ay, acz = (v[c + 2] as number) - az; // prettier-ignore
  const apx = px - ax, apy = py - ay, apz = pz - az; // prettier-ignore
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return apx * apx + apy * apy + apz * apz;
  const bpx = px - (v[b] as number), bpy = py - (v[b + 1] as number), bpz = pz - (v[b + 2] as number); // prettier-ignore
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return bpx * bpx + bpy * bpy + bpz * bpz;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const s = d1 / (d1 - d3);
    return sq(apx - s * abx, apy - s * aby, apz - s * abz);
  }
  const cpx = px - (v[c] as number), cpy = py - (v[c + 1] as number), cpz = pz - (v[c + 2] as number); // prettier-ignore
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return cpx * cpx + cpy * cpy + cpz * cpz;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const s = d2 / (d2 - d6);
    return sq(apx - s * acx, apy - s * acy, apz - s * acz);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const s = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return sq(bpx - s * (acx - abx), bpy - s * (acy - aby), bpz - s * (acz - abz));
  }
  const denom = 1 / (va + vb + vc);
  const sv = vb * denom;
  const sw = vc * denom;
  return sq(apx - sv * abx - sw * acx, apy - sv * aby - sw * acy, apz - sv * abz - sw * acz);
}

function sq(x: number, y: number, z: number): number {
  return x * x + y * y + z * z;
}

/**
 * Mean distance (mm) from the vertices of shape `points` to the surface `to`, over every `stride`-th vertex (1: all;
 * a stride samples the mean for the quality curves' thousands of comparisons). When `points` has as many vertices as
 * the surface and they correspond (one topology), vertex i's distance to the surface's vertex i bounds the search.
 */
export function meanDistanceToSurface(points: Float64Array, to: SurfaceIndex, stride = 1): number {
  const corresponding = points.length === to.positions.length;
  const v = to.positions;
  let sum = 0;
  let count = 0;
  const step = Math.max(1, Math.floor(stride)) * 3;
  for (let i = 0; i < points.length; i += step) {
    const x = points[i] as number;
    const y = points[i + 1] as number;
    const z = points[i + 2] as number;
    const bound = corresponding
      ? Math.sqrt(sq(x - (v[i] as number), y - (v[i + 1] as number), z - (v[i + 2] as number)))
      : Infinity;
    sum += distanceToSurface(to, x, y, z, bound);
    count += 1;
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * Symmetric mean surface distance (mm) between two shapes of one topology: the mean of (vertices of a → surface of
 * b) and (vertices of b → surface of a). Unlike the vertex-to-vertex distance it does not reward a model for sliding
 * points along the surface.
 */
export function surfaceDistance(a: SurfaceIndex, b: SurfaceIndex, stride = 1): number {
  return (meanDistanceToSurface(a.positions, b, stride) + meanDistanceToSurface(b.positions, a, stride)) / 2;
}
