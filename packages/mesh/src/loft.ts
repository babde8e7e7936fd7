/**
 * Ring lofts: the topology of a surface swept through `ringCount` rings of `ringSize` vertices each, closed
 * either by a pole vertex at each end (a sphere-like surface, Euler characteristic 2) or periodically, the last
 * ring joined to the first (a torus, Euler characteristic 0).
 *
 * Vertex layout: [bottom pole], ring 0 (ringSize vertices), ring 1, …, ring ringCount−1, [top pole].
 * Orientation: when ring vertices run counter-clockwise seen from the top end (the end of the last ring) and the
 * rings advance towards the top, every triangle faces outwards.
 */

/** Topology options of a loft. */
export interface LoftOptions {
  /** Rings to sweep through (≥ 2 unless poles close it; ≥ 3 when periodic). */
  readonly ringCount: number;
  /** Vertices per ring (≥ 3). */
  readonly ringSize: number;
  /** Join the last ring back to the first (torus) instead of closing both ends with a pole vertex. */
  readonly periodic?: boolean;
}

/** Number of vertices of a loft (rings plus the two poles unless periodic). */
export function loftVertexCount(options: LoftOptions): number {
  return options.ringCount * options.ringSize + (options.periodic === true ? 0 : 2);
}

/** Index of vertex `i` of ring `ring` in a loft's vertex layout. */
export function loftRingVertex(options: LoftOptions, ring: number, i: number): number {
  return (options.periodic === true ? 0 : 1) + ring * options.ringSize + i;
}

/** Triangle indices of a closed loft (three per triangle, outward as described above). */
export function loftIndices(options: LoftOptions): Uint32Array {
  const { ringCount, ringSize } = options;
  const periodic = options.periodic === true;
  if (ringSize < 3 || ringCount < (periodic ? 3 : 1)) throw new RangeError('loft: too few rings or ring vertices');
  const strips = periodic ? ringCount : ringCount - 1;
  const triangles = strips * ringSize * 2 + (periodic ? 0 : 2 * ringSize);
  const out = new Uint32Array(triangles * 3);
  const base = periodic ? 0 : 1;
  let k = 0;
  if (!periodic) {
    // Bottom fan: pole 0, outward (away from the rings).
    for (let i = 0; i < ringSize; i++) {
      const next = (i + 1) % ringSize;
      out[k++] = 0;
      out[k++] = base + next;
      out[k++] = base + i;
    }
  }
  for (let r = 0; r < strips; r++) {
    const r0 = base + r * ringSize;
    const r1 = base + ((r + 1) % ringCount) * ringSize;
    for (let i = 0; i < ringSize; i++) {
      const next = (i + 1) % ringSize;
      out[k++] = r0 + i;
      out[k++] = r0 + next;
      out[k++] = r1 + next;
      out[k++] = r0 + i;
      out[k++] = r1 + next;
      out[k++] = r1 + i;
    }
  }
  if (!periodic) {
    const top = base + ringCount * ringSize;
    const last = base + (ringCount - 1) * ringSize;
    for (let i = 0; i < ringSize; i++) {
      const next = (i + 1) % ringSize;
      out[k++] = top;
      out[k++] = last + i;
      out[k++] = last + next;
    }
  }
  return out;
}
