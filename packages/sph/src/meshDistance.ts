/**
 * Unsigned distance from a point to a triangle soup (positions in m, 3 per vertex; 3 indices per triangle), exact.
 * Triangles are bucketed on a 3D grid over their bounding box; a query visits shells of cells around the point's
 * cell, nearest first, and stops once the next shell cannot hold anything closer, or, given `band` (m), once
 * everything unvisited is at least `band` away (the result is then a lower bound ≥ band, enough to know that the point
 * is far from the surface). Given `nearest`, the nearest point of the surface is written there (when within `band`),
 * and given `triangle`, the index of the triangle it lies on goes to `triangle[0]`.
 */
export function meshDistance(
  p: Float64Array,
  tri: Uint32Array | Int32Array | readonly number[],
  lower: readonly [number, number, number],
  upper: readonly [number, number, number],
): (
  x: number,
  y: number,
  z: number,
  band?: number,
  nearest?: [number, number, number],
  triangle?: Int32Array,
) => number {
  const nt = tri.length / 3;
  // Cubic cells, about one per triangle (at most 64 per axis): elongated cells (a long vessel) would make the shell
  // search's reach, ring × the smallest cell width, grow slowly along the other axes.
  const extent = [0, 1, 2].map((a) => upper[a]! - lower[a]!);
  const longest = Math.max(...extent) || 1;
  const floor = longest / 64;
  const side = Math.max(floor, Math.cbrt(extent.reduce((v, e) => v * Math.max(e, floor), 1) / Math.max(1, nt)));
  const n = extent.map((e) => Math.max(1, Math.min(64, Math.ceil(e / side)))) as [number, number, number];
  const [gx, gy, gz] = n;
  const size = extent.map((e, a) => e / n[a]! || 1);
  const minSize = Math.min(...size);
  const cellOf = (v: number, a: number): number =>
    Math.min(n[a]! - 1, Math.max(0, Math.floor((v - lower[a]!) / size[a]!)));
  const cells = gx * gy * gz;
  const ranges: number[][] = [];
  const counts = new Int32Array(cells + 1);
  for (let t = 0; t < nt; t++) {
    const r: number[] = [];
    for (let a = 0; a < 3; a++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let c = 0; c < 3; c++) {
        const v = p[3 * (tri[3 * t + c] as number) + a]!;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      r.push(cellOf(lo, a), cellOf(hi, a));
    }
    ranges.push(r);
    for (let k = r[4]!; k <= r[5]!; k++)
      for (let j = r[2]!; j <= r[3]!; j++) for (let i = r[0]!; i <= r[1]!; i++) counts[(k * gy + j) * gx + i + 1]!++;
  }
  for (let c = 0; c < cells; c++) counts[c + 1] = counts[c + 1]! + counts[c]!;
  const bucket = new Int32Array(counts[cells]!);
  const fill = counts.slice(0, cells);
  ranges.forEach((r, t) => {
    for (let k = r[4]!; k <= r[5]!; k++)
      for (let j = r[2]!; j <= r[3]!; j++)
        for (let i = r[0]!; i <= r[1]!; i++) bucket[fill[(k * gy + j) * gx + i]!++] = t;
  });

  const q: [number, number, number] = [0, 0, 0];
  /** Nearest point found so far (valid when `best` is finite). */
  const at: [number, number, number] = [0, 0, 0];
  /** Triangle of `at`. */
  let atTriangle = -1;
  const cellDistance2 = (c: number, x: number, y: number, z: number, best: number): number => {
    for (let b = counts[c]!; b < counts[c + 1]!; b++) {
      const t = bucket[b]!;
      const d2 = pointTriangleDistance2(
        p,
        3 * (tri[3 * t] as number),
        3 * (tri[3 * t + 1] as number),
        3 * (tri[3 * t + 2] as number),
        x,
        y,
        z,
        q,
      );
      if (d2 < best) {
        best = d2;
        at[0] = q[0];
        at[1] = q[1];
        at[2] = q[2];
        atTriangle = t;
      }
    }
    return best;
  };

  return (x, y, z, band = Infinity, nearest, triangle) => {
    // Farther than `band` from the bounding box: farther from every triangle.
    const outside = Math.hypot(
      Math.max(lower[0] - x, 0, x - upper[0]),
      Math.max(lower[1] - y, 0, y - upper[1]),
      Math.max(lower[2] - z, 0, z - upper[2]),
    );
    if (outside >= band) return outside;
    const ci = cellOf(x, 0);
    const cj = cellOf(y, 1);
    const ck = cellOf(z, 2);
    let best = Infinity;
    const rings = Math.max(gx, gy, gz);
    for (let ring = 0; ring < rings; ring++) {
      for (let k = Math.max(0, ck - ring); k <= Math.min(gz - 1, ck + ring); k++) {
        for (let j = Math.max(0, cj - ring); j <= Math.min(gy - 1, cj + ring); j++) {
          const inner = Math.max(Math.abs(j - cj), Math.abs(k - ck)) !== ring;
          for (let i = Math.max(0, ci - ring); i <= Math.min(gx - 1, ci + ring); i++) {
            // Only the shell of this ring: the inner cells were visited before.
            if (inner && Math.abs(i - ci) !== ring) continue;
            best = cellDistance2((k * gy + j) * gx + i, x, y, z, best);
          }
        }
      }
      // Every cell of a later ring is at least ring · (smallest cell width) away.
      const reach = ring * minSize;
      if (best <= reach * reach) break;
      if (reach >= band) return reach;
    }
    if (nearest) {
      nearest[0] = at[0];
      nearest[1] = at[1];
      nearest[2] = at[2];
    }
    if (triangle) triangle[0] = atTriangle;
    return Math.sqrt(best);
  };
}

/**
 * Squared distance from (x, y, z) to the triangle of vertex offsets a, b, c in `p` (Ericson, Real-Time Collision
 * Detection, 5.1.5); the nearest point of the triangle goes to `out`.
 */
function pointTriangleDistance2(
  p: Float64Array,
  a: number,
  b: number,
  c: number,
  x: number,
  y: number,
  z: number,
  out: [number, number, number],
): number {
  const ax = p[a]!;
  const ay = p[a + 1]!;
  const az = p[a + 2]!;
  const abx = p[b]! - ax;
  const aby = p[b + 1]! - ay;
  const abz = p[b + 2]! - az;
  const acx = p[c]! - ax;
  const acy = p[c + 1]! - ay;
  const acz = p[c + 2]! - az;
  const apx = x - ax;
  const apy = y - ay;
  const apz = z - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return nearestAt(out, x, y, z, ax, ay, az);
  const bpx = x - p[b]!;
  const bpy = y - p[b + 1]!;
  const bpz = z - p[b + 2]!;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return nearestAt(out, x, y, z, p[b]!, p[b + 1]!, p[b + 2]!);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return nearestAt(out, x, y, z, ax + v * abx, ay + v * aby, az + v * abz);
  }
  const cpx = x - p[c]!;
  const cpy = y - p[c + 1]!;
  const cpz = z - p[c + 2]!;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return nearestAt(out, x, y, z, p[c]!, p[c + 1]!, p[c + 2]!);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return nearestAt(out, x, y, z, ax + w * acx, ay + w * acy, az + w * acz);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    const bx = p[b]!;
    const by = p[b + 1]!;
    const bz = p[b + 2]!;
    return nearestAt(out, x, y, z, bx + w * (p[c]! - bx), by + w * (p[c + 1]! - by), bz + w * (p[c + 2]! - bz));
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  return nearestAt(out, x, y, z, ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
}

/**
 * Writes the point q to `out` and returns its squared distance from (x, y, z). A module-level function, not a closure
 * in `pointTriangleDistance2`: under tsx (esbuild's keepNames) every closure created per call also sets its name,
 * which made the nearest-point query about 4 times slower (docs/decisions/scenario-solid-expansion.md).
 */
function nearestAt(
  out: [number, number, number],
  x: number,
  y: number,
  z: number,
  qx: number,
  qy: number,
  qz: number,
): number {
  out[0] = qx;
  out[1] = qy;
  out[2] = qz;
  return (x - qx) ** 2 + (y - qy) ** 2 + (z - qz) ** 2;
}
