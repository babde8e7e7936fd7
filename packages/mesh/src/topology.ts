import type { TriangleMesh } from './types';

/** Edge-based topology of a triangle mesh: the checks a closed, consistently oriented surface passes. */
export interface TopologyReport {
  /** Vertices referenced by at least one triangle. */
  readonly vertices: number;
  /** Distinct undirected edges. */
  readonly edges: number;
  readonly faces: number;
  /** Edges used by exactly one triangle (holes); 0 for a closed surface. */
  readonly boundaryEdges: number;
  /** Edges used by more than two triangles; 0 for a manifold surface. */
  readonly nonManifoldEdges: number;
  /** Two-triangle edges traversed in the same direction by both (orientation flips); 0 when consistent. */
  readonly inconsistentEdges: number;
  /** Triangles with a repeated vertex index. */
  readonly degenerateFaces: number;
  /** V − E + F over referenced vertices: 2 per sphere-like component, 0 per torus. */
  readonly eulerCharacteristic: number;
  /** No boundary and no non-manifold edges. */
  readonly closed: boolean;
  /** Closed, manifold and every shared edge traversed once in each direction. */
  readonly consistentlyOriented: boolean;
}

/**
 * Edge analysis of a mesh in O(F): every half-edge a→b is filed under its smaller vertex as (larger·2 + direction)
 * in one flat array grouped by vertex (counting sort), then each vertex's short list is sorted and its runs
 * scanned. Triangles with a repeated vertex index have no proper edges and are left out of the edge counts (they
 * are counted as degenerate). Valid for fewer than 2³¹ vertices.
 */
export function analyseTopology(mesh: TriangleMesh): TopologyReport {
  const idx = mesh.indices;
  const nv = mesh.positions.length / 3;
  if (nv >= 2 ** 31) throw new RangeError('analyseTopology: too many vertices');
  const faces = idx.length / 3;
  // start[v] .. start[v + 1]: the half-edges filed under vertex v.
  const start = new Uint32Array(nv + 1);
  const used = new Uint8Array(nv);
  let degenerateFaces = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t] as number;
    const b = idx[t + 1] as number;
    const c = idx[t + 2] as number;
    used[a] = 1;
    used[b] = 1;
    used[c] = 1;
    if (a === b || b === c || a === c) {
      degenerateFaces++;
      continue;
    }
    const ab = a < b ? a : b;
    const bc = b < c ? b : c;
    const ca = c < a ? c : a;
    start[ab] = (start[ab] as number) + 1;
    start[bc] = (start[bc] as number) + 1;
    start[ca] = (start[ca] as number) + 1;
  }
  let sum = 0;
  for (let v = 0; v <= nv; v++) {
    const n = start[v] as number;
    start[v] = sum;
    sum += n;
  }
  const next = start.slice(0, nv);
  const entries = new Uint32Array(sum);
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t] as number;
    const b = idx[t + 1] as number;
    const c = idx[t + 2] as number;
    if (a === b || b === c || a === c) continue;
    fileHalfEdge(a, b, next, entries);
    fileHalfEdge(b, c, next, entries);
    fileHalfEdge(c, a, next, entries);
  }
  let edges = 0;
  let boundaryEdges = 0;
  let nonManifoldEdges = 0;
  let inconsistentEdges = 0;
  for (let v = 0; v < nv; v++) {
    const from = start[v] as number;
    const to = start[v + 1] as number;
    if (to - from > 1) sortRange(entries, from, to);
    let i = from;
    while (i < to) {
      const other = (entries[i] as number) >>> 1;
      let j = i + 1;
      while (j < to && (entries[j] as number) >>> 1 === other) j++;
      edges++;
      const run = j - i;
      if (run === 1) boundaryEdges++;
      else if (run > 2) nonManifoldEdges++;
      // Sorted, so a consistent pair is (…0, …1); equal entries mean both triangles run the edge the same way.
      else if (entries[i] === entries[i + 1]) inconsistentEdges++;
      i = j;
    }
  }
  let vertices = 0;
  for (let v = 0; v < nv; v++) vertices += used[v] as number;
  const closed = boundaryEdges === 0 && nonManifoldEdges === 0;
  return {
    vertices,
    edges,
    faces,
    boundaryEdges,
    nonManifoldEdges,
    inconsistentEdges,
    degenerateFaces,
    eulerCharacteristic: vertices - edges + (faces - degenerateFaces),
    closed,
    consistentlyOriented: closed && inconsistentEdges === 0 && degenerateFaces === 0,
  };
}

/** Files half-edge a→b under min(a, b) as max·2 + (1 when it runs from the larger vertex to the smaller). */
function fileHalfEdge(a: number, b: number, next: Uint32Array, entries: Uint32Array): void {
  const low = a < b ? a : b;
  const slot = next[low] as number;
  next[low] = slot + 1;
  entries[slot] = a < b ? b * 2 : a * 2 + 1;
}

/** Sorts entries[from, to): insertion sort for the usual handful, the built-in sort for fans and poles. */
function sortRange(entries: Uint32Array, from: number, to: number): void {
  if (to - from > 24) {
    entries.subarray(from, to).sort();
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const x = entries[i] as number;
    let j = i - 1;
    while (j >= from && (entries[j] as number) > x) {
      entries[j + 1] = entries[j] as number;
      j--;
    }
    entries[j + 1] = x;
  }
}
