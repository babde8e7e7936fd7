/**
 * Surface decimation by quadric error metric edge collapse (Garland & Heckbert, "Surface simplification using quadric
 * error metrics", SIGGRAPH 1997): every vertex carries the sum of the squared-distance quadrics of its triangles'
 * planes (area-weighted); the edge whose merged vertex would move least from those planes collapses first, to the
 * point minimising the merged quadric. Written from the paper (docs/decisions/mesh-decimation.md).
 *
 * Topology is kept: a collapse that would make the surface non-manifold (the link condition of Dey et al. 1999), flip
 * a triangle, or pinch or close an open boundary is skipped. Open boundaries (the rims of an aortic root) stay where
 * they are: boundary edges add a heavily weighted quadric of the plane through the edge perpendicular to its triangle
 * (the paper's section 6), an edge from the interior to the boundary collapses onto the boundary vertex, and an
 * interior edge between two boundary vertices never collapses.
 */
import type { TriangleMesh, TriangleMesh64 } from './types';

/** Refusals of {@link decimateTo}. */
export class DecimationInputError extends Error {
  override readonly name = 'DecimationInputError';
}

/** Weight of a boundary edge's perpendicular plane against the triangles' (area-weighted) planes. */
const BOUNDARY_WEIGHT = 1000;
/** A collapse may not turn a triangle's normal by more than about 78° (cos > 0.2): no fold-overs. */
const MIN_NORMAL_COSINE = 0.2;

/**
 * The mesh with at most `maxVertices` vertices (fewer only when no further collapse keeps the topology), unused
 * vertices dropped. A mesh already small enough comes back with its vertices compacted, otherwise unchanged.
 * Deterministic: ties are broken by edge order, no random numbers.
 * @throws DecimationInputError for a target under 4 vertices, indices out of range or non-finite positions.
 */
export function decimateTo(mesh: TriangleMesh, maxVertices: number): TriangleMesh64 {
  if (!Number.isInteger(maxVertices) || maxVertices < 4)
    throw new DecimationInputError('Decimation needs a target of at least 4 vertices (a whole number).');
  const nv = mesh.positions.length / 3;
  const positions = Float64Array.from(mesh.positions);
  for (let i = 0; i < positions.length; i++)
    if (!Number.isFinite(positions[i])) throw new DecimationInputError('A vertex position is not a finite number.');
  const faces = Uint32Array.from(mesh.indices);
  for (let i = 0; i < faces.length; i++)
    if (faces[i]! >= nv) throw new DecimationInputError('A triangle refers to a vertex that does not exist.');
  const state = new Collapser(positions, faces);
  state.run(maxVertices);
  return state.compact();
}

/** Symmetric 4 × 4 quadric as its 10 upper-triangle entries (a², ab, ac, ad, b², bc, bd, c², cd, d²). */
function addPlane(q: Float64Array, o: number, a: number, b: number, c: number, d: number, weight: number): void {
  q[o] = q[o]! + weight * a * a;
  q[o + 1] = q[o + 1]! + weight * a * b;
  q[o + 2] = q[o + 2]! + weight * a * c;
  q[o + 3] = q[o + 3]! + weight * a * d;
  q[o + 4] = q[o + 4]! + weight * b * b;
  q[o + 5] = q[o + 5]! + weight * b * c;
  q[o + 6] = q[o + 6]! + weight * b * d;
  q[o + 7] = q[o + 7]! + weight * c * c;
  q[o + 8] = q[o + 8]! + weight * c * d;
  q[o + 9] = q[o + 9]! + weight * d * d;
}

/** vᵀ Q v for v = (x, y, z, 1), Q the sum of the quadrics at offsets o1 and o2. */
function quadricError(q: Float64Array, o1: number, o2: number, x: number, y: number, z: number): number {
  const e = (k: number): number => q[o1 + k]! + q[o2 + k]!;
  return (
    e(0) * x * x +
    2 * e(1) * x * y +
    2 * e(2) * x * z +
    2 * e(3) * x +
    e(4) * y * y +
    2 * e(5) * y * z +
    2 * e(6) * y +
    e(7) * z * z +
    2 * e(8) * z +
    e(9)
  );
}

/** Min-heap of candidate collapses, each tagged with its vertices' versions (stale entries are skipped on pop). */
class CollapseHeap {
  private cost: number[] = [];
  private entry: number[] = []; // index into the records below
  private readonly records: number[] = []; // a, b, version a, version b, x, y, z per record (7 numbers)

  get size(): number {
    return this.cost.length;
  }

  push(cost: number, a: number, b: number, va: number, vb: number, x: number, y: number, z: number): void {
    const record = this.records.length / 7;
    this.records.push(a, b, va, vb, x, y, z);
    let i = this.cost.length;
    this.cost.push(cost);
    this.entry.push(record);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.cost[parent]! <= cost) break;
      this.cost[i] = this.cost[parent]!;
      this.entry[i] = this.entry[parent]!;
      i = parent;
    }
    this.cost[i] = cost;
    this.entry[i] = record;
  }

  /** Removes the cheapest entry and returns its record's offset into {@link record}. */
  pop(): number {
    const top = this.entry[0]!;
    const lastCost = this.cost.pop()!;
    const lastEntry = this.entry.pop()!;
    const n = this.cost.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.cost[r]! < this.cost[l]! ? r : l;
        if (this.cost[c]! >= lastCost) break;
        this.cost[i] = this.cost[c]!;
        this.entry[i] = this.entry[c]!;
        i = c;
      }
      this.cost[i] = lastCost;
      this.entry[i] = lastEntry;
    }
    return top * 7;
  }

  record(offset: number, k: number): number {
    return this.records[offset + k]!;
  }
}

/** The mutable mesh during decimation: faces per vertex, quadrics, boundary flags, the heap of collapses. */
class Collapser {
  private readonly nv: number;
  private readonly faceAlive: Uint8Array;
  private readonly vertexFaces: number[][];
  private readonly quadrics: Float64Array;
  private readonly boundary: Uint8Array;
  private readonly version: Uint32Array;
  private readonly alive: Uint8Array;
  private aliveCount: number;
  private readonly heap = new CollapseHeap();

  constructor(
    private readonly positions: Float64Array,
    private readonly faces: Uint32Array,
  ) {
    const nv = positions.length / 3;
    const nf = faces.length / 3;
    this.nv = nv;
    this.faceAlive = new Uint8Array(nf);
    this.vertexFaces = Array.from({ length: nv }, () => []);
    this.quadrics = new Float64Array(nv * 10);
    this.boundary = new Uint8Array(nv);
    this.version = new Uint32Array(nv);
    this.alive = new Uint8Array(nv);
    for (let f = 0; f < nf; f++) {
      const a = faces[f * 3]!;
      const b = faces[f * 3 + 1]!;
      const c = faces[f * 3 + 2]!;
      if (a === b || b === c || a === c) continue; // degenerate by index: dropped
      this.faceAlive[f] = 1;
      for (const v of [a, b, c]) {
        this.vertexFaces[v]!.push(f);
        this.alive[v] = 1;
      }
      const n = this.faceNormal(a, b, c);
      const area = n[3] / 2;
      if (area > 0) {
        const nx = n[0] / n[3];
        const ny = n[1] / n[3];
        const nz = n[2] / n[3];
        const d = -(nx * positions[a * 3]! + ny * positions[a * 3 + 1]! + nz * positions[a * 3 + 2]!);
        for (const v of [a, b, c]) addPlane(this.quadrics, v * 10, nx, ny, nz, d, area);
      }
    }
    this.aliveCount = this.alive.reduce((s, x) => s + x, 0);
    // Boundary edges (one triangle): mark their vertices, add the perpendicular plane's quadric.
    for (let f = 0; f < nf; f++) {
      if (!this.faceAlive[f]) continue;
      for (let e = 0; e < 3; e++) {
        const a = faces[f * 3 + e]!;
        const b = faces[f * 3 + ((e + 1) % 3)]!;
        if (this.sharedFaces(a, b) !== 1) continue;
        this.boundary[a] = 1;
        this.boundary[b] = 1;
        this.addBoundaryPlane(f, a, b);
      }
    }
    for (let f = 0; f < nf; f++) {
      if (!this.faceAlive[f]) continue;
      for (let e = 0; e < 3; e++) {
        const a = faces[f * 3 + e]!;
        const b = faces[f * 3 + ((e + 1) % 3)]!;
        // Each undirected edge once: from the triangle where it runs a → b with a < b, or its only triangle.
        if (a < b || this.sharedFaces(a, b) === 1) this.consider(a, b);
      }
    }
  }

  run(target: number): void {
    while (this.aliveCount > target && this.heap.size > 0) {
      const r = this.heap.pop();
      const a = this.heap.record(r, 0);
      const b = this.heap.record(r, 1);
      if (!this.alive[a] || !this.alive[b]) continue;
      if (this.version[a] !== this.heap.record(r, 2) || this.version[b] !== this.heap.record(r, 3)) continue;
      this.collapse(a, b, this.heap.record(r, 4), this.heap.record(r, 5), this.heap.record(r, 6));
    }
  }

  /** The surviving faces and vertices, renumbered in their original order. */
  compact(): TriangleMesh64 {
    const map = new Int32Array(this.nv).fill(-1);
    let next = 0;
    const kept: number[] = [];
    for (let f = 0; f < this.faces.length / 3; f++) {
      if (!this.faceAlive[f]) continue;
      for (let k = 0; k < 3; k++) kept.push(this.faces[f * 3 + k]!);
    }
    for (const v of kept) if (map[v] === -1) map[v] = 0;
    for (let v = 0; v < this.nv; v++) if (map[v] === 0) map[v] = next++;
    const positions = new Float64Array(next * 3);
    for (let v = 0; v < this.nv; v++)
      if (map[v]! >= 0) positions.set(this.positions.subarray(v * 3, v * 3 + 3), map[v]! * 3);
    return { positions, indices: Uint32Array.from(kept, (v) => map[v]!) };
  }

  /** (n, |n|) for the triangle a, b, c, n = (b − a) × (c − a). */
  private faceNormal(a: number, b: number, c: number): [number, number, number, number] {
    const p = this.positions;
    return normalOf(p[a * 3]!, p[a * 3 + 1]!, p[a * 3 + 2]!, p, b, c);
  }

  private addBoundaryPlane(f: number, a: number, b: number): void {
    const p = this.positions;
    const c = this.faces[f * 3]! + this.faces[f * 3 + 1]! + this.faces[f * 3 + 2]! - a - b;
    const n = this.faceNormal(a, b, c);
    if (n[3] === 0) return;
    const ex = p[b * 3]! - p[a * 3]!;
    const ey = p[b * 3 + 1]! - p[a * 3 + 1]!;
    const ez = p[b * 3 + 2]! - p[a * 3 + 2]!;
    // Plane through the edge, containing the triangle's normal: its normal is e × n.
    let px = ey * n[2] - ez * n[1];
    let py = ez * n[0] - ex * n[2];
    let pz = ex * n[1] - ey * n[0];
    const length = Math.hypot(px, py, pz);
    if (length === 0) return;
    px /= length;
    py /= length;
    pz /= length;
    const d = -(px * p[a * 3]! + py * p[a * 3 + 1]! + pz * p[a * 3 + 2]!);
    const weight = BOUNDARY_WEIGHT * (ex * ex + ey * ey + ez * ez);
    addPlane(this.quadrics, a * 10, px, py, pz, d, weight);
    addPlane(this.quadrics, b * 10, px, py, pz, d, weight);
  }

  /** Number of live faces holding both a and b. */
  private sharedFaces(a: number, b: number): number {
    let count = 0;
    for (const f of this.vertexFaces[a]!)
      if (this.faces[f * 3] === b || this.faces[f * 3 + 1] === b || this.faces[f * 3 + 2] === b) count++;
    return count;
  }

  /** Pushes the collapse of edge a–b (if the boundary rules allow one) at its best position and cost. */
  private consider(a: number, b: number): void {
    const ba = this.boundary[a] === 1;
    const bb = this.boundary[b] === 1;
    const p = this.positions;
    const q = this.quadrics;
    let x: number;
    let y: number;
    let z: number;
    if (ba && bb) {
      if (this.sharedFaces(a, b) !== 1) return; // an interior edge across the surface: collapsing would pinch
      [x, y, z] = this.optimalPoint(a, b);
    } else if (ba || bb) {
      const keep = ba ? a : b; // onto the boundary vertex: the rim does not move
      x = p[keep * 3]!;
      y = p[keep * 3 + 1]!;
      z = p[keep * 3 + 2]!;
    } else [x, y, z] = this.optimalPoint(a, b);
    const cost = Math.max(0, quadricError(q, a * 10, b * 10, x, y, z));
    this.heap.push(cost, a, b, this.version[a]!, this.version[b]!, x, y, z);
  }

  /** Minimiser of the merged quadric when well-conditioned, else the best of the two ends and the midpoint. */
  private optimalPoint(a: number, b: number): [number, number, number] {
    const q = this.quadrics;
    const e = (k: number): number => q[a * 10 + k]! + q[b * 10 + k]!;
    const [m00, m01, m02, m11, m12, m22] = [e(0), e(1), e(2), e(4), e(5), e(7)];
    const [r0, r1, r2] = [-e(3), -e(6), -e(8)];
    const c00 = m11 * m22 - m12 * m12;
    const c01 = m02 * m12 - m01 * m22;
    const c02 = m01 * m12 - m02 * m11;
    const det = m00 * c00 + m01 * c01 + m02 * c02;
    const trace = m00 + m11 + m22;
    const p = this.positions;
    // Relative conditioning: the determinant against (trace / 3)³ (all three directions constrained).
    if (trace > 0 && Math.abs(det) > 1e-6 * (trace / 3) ** 3) {
      const c11 = m00 * m22 - m02 * m02;
      const c12 = m01 * m02 - m00 * m12;
      const c22 = m00 * m11 - m01 * m01;
      const x = (c00 * r0 + c01 * r1 + c02 * r2) / det;
      const y = (c01 * r0 + c11 * r1 + c12 * r2) / det;
      const z = (c02 * r0 + c12 * r1 + c22 * r2) / det;
      // Far outside the edge's neighbourhood means the system was nearly singular after all.
      const length = Math.hypot(p[a * 3]! - p[b * 3]!, p[a * 3 + 1]! - p[b * 3 + 1]!, p[a * 3 + 2]! - p[b * 3 + 2]!);
      const mx = (p[a * 3]! + p[b * 3]!) / 2;
      const my = (p[a * 3 + 1]! + p[b * 3 + 1]!) / 2;
      const mz = (p[a * 3 + 2]! + p[b * 3 + 2]!) / 2;
      if (Math.hypot(x - mx, y - my, z - mz) <= 2 * length) return [x, y, z];
    }
    const candidates: [number, number, number][] = [
      [p[a * 3]!, p[a * 3 + 1]!, p[a * 3 + 2]!],
      [p[b * 3]!, p[b * 3 + 1]!, p[b * 3 + 2]!],
      [(p[a * 3]! + p[b * 3]!) / 2, (p[a * 3 + 1]! + p[b * 3 + 1]!) / 2, (p[a * 3 + 2]! + p[b * 3 + 2]!) / 2],
    ];
    let best = candidates[0]!;
    let bestCost = Number.POSITIVE_INFINITY;
    for (const c of candidates) {
      const cost = quadricError(q, a * 10, b * 10, c[0], c[1], c[2]);
      if (cost < bestCost) {
        bestCost = cost;
        best = c;
      }
    }
    return best;
  }

  /** Merges b into a at (x, y, z) when the topology and orientation survive; returns whether it did. */
  private collapse(a: number, b: number, x: number, y: number, z: number): boolean {
    const faces = this.faces;
    const facesA = this.vertexFaces[a]!;
    const facesB = this.vertexFaces[b]!;
    // Link condition: the vertices adjacent to both a and b are exactly the far corners of the faces on a–b.
    const neighboursA = new Set<number>();
    for (const f of facesA) for (let k = 0; k < 3; k++) neighboursA.add(faces[f * 3 + k]!);
    let common = 0;
    let onEdge = 0;
    const seen = new Set<number>();
    for (const f of facesB) {
      let hasA = false;
      for (let k = 0; k < 3; k++) {
        const v = faces[f * 3 + k]!;
        if (v === a) hasA = true;
        if (v !== a && v !== b && neighboursA.has(v) && !seen.has(v)) {
          seen.add(v);
          common++;
        }
      }
      if (hasA) onEdge++;
    }
    if (onEdge === 0 || common !== onEdge) return false;
    if (onEdge === 1) {
      // A boundary edge: its far corner must not be on the boundary too (that would close or pinch the hole).
      for (const v of seen) if (this.boundary[v]) return false;
    }
    // Smallest closed piece (a tetrahedron) stays.
    if (onEdge === 2 && facesA.length + facesB.length <= 6) return false;
    // No face may flip or degenerate.
    const p = this.positions;
    for (const [moved, other] of [
      [a, b],
      [b, a],
    ] as const)
      for (const f of this.vertexFaces[moved]!) {
        const i0 = faces[f * 3]!;
        const i1 = faces[f * 3 + 1]!;
        const i2 = faces[f * 3 + 2]!;
        if (i0 === other || i1 === other || i2 === other) continue;
        const before = normalOf(p[i0 * 3]!, p[i0 * 3 + 1]!, p[i0 * 3 + 2]!, p, i1, i2);
        const after = this.normalWith(i0, i1, i2, moved, x, y, z);
        if (after[3] === 0 || before[3] === 0) return false;
        const cosine = (before[0] * after[0] + before[1] * after[1] + before[2] * after[2]) / (before[3] * after[3]);
        if (cosine < MIN_NORMAL_COSINE) return false;
      }

    // Apply: faces on the edge die, b's other faces move to a.
    for (const f of facesB) {
      const onAB = faces[f * 3] === a || faces[f * 3 + 1] === a || faces[f * 3 + 2] === a;
      if (onAB) {
        this.faceAlive[f] = 0;
        for (let k = 0; k < 3; k++) {
          const v = faces[f * 3 + k]!;
          if (v === b) continue;
          const list = this.vertexFaces[v]!;
          list.splice(list.indexOf(f), 1);
        }
      } else {
        for (let k = 0; k < 3; k++) if (faces[f * 3 + k] === b) faces[f * 3 + k] = a;
        facesA.push(f);
      }
    }
    this.vertexFaces[b] = [];
    this.alive[b] = 0;
    this.aliveCount--;
    p[a * 3] = x;
    p[a * 3 + 1] = y;
    p[a * 3 + 2] = z;
    for (let k = 0; k < 10; k++) this.quadrics[a * 10 + k] = this.quadrics[a * 10 + k]! + this.quadrics[b * 10 + k]!;
    if (this.boundary[b]) this.boundary[a] = 1;
    this.version[a] = this.version[a]! + 1;
    // Only a's edges change cost (the others' quadrics and ends are as they were); a's old entries are now stale.
    const neighbours = new Set<number>();
    for (const f of facesA) for (let k = 0; k < 3; k++) neighbours.add(faces[f * 3 + k]!);
    neighbours.delete(a);
    for (const v of neighbours) this.consider(a, v);
    return true;
  }

  /** (n, |n|) of triangle i0, i1, i2 with vertex `moved` at (x, y, z). */
  private normalWith(
    i0: number,
    i1: number,
    i2: number,
    moved: number,
    x: number,
    y: number,
    z: number,
  ): [number, number, number, number] {
    const p = this.positions;
    const at = (v: number): [number, number, number] =>
      v === moved ? [x, y, z] : [p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!];
    const [ax, ay, az] = at(i0);
    const [bx, by, bz] = at(i1);
    const [cx, cy, cz] = at(i2);
    return cross(bx - ax, by - ay, bz - az, cx - ax, cy - ay, cz - az);
  }
}

function normalOf(
  ax: number,
  ay: number,
  az: number,
  p: Float64Array,
  b: number,
  c: number,
): [number, number, number, number] {
  return cross(
    p[b * 3]! - ax,
    p[b * 3 + 1]! - ay,
    p[b * 3 + 2]! - az,
    p[c * 3]! - ax,
    p[c * 3 + 1]! - ay,
    p[c * 3 + 2]! - az,
  );
}

function cross(
  ux: number,
  uy: number,
  uz: number,
  vx: number,
  vy: number,
  vz: number,
): [number, number, number, number] {
  const x = uy * vz - uz * vy;
  const y = uz * vx - ux * vz;
  const z = ux * vy - uy * vx;
  return [x, y, z, Math.hypot(x, y, z)];
}
