// Small exact test shapes shared by the package's tests (not exported from the package).
import { loftIndices, loftRingVertex, loftVertexCount, type LoftOptions } from '../src/loft';
import type { TriangleMesh } from '../src/types';

/** Unit-free cube [0,s]³, 12 outward triangles. */
export function cube(s: number): TriangleMesh {
  const positions = new Float64Array([0, 0, 0, s, 0, 0, s, s, 0, 0, s, 0, 0, 0, s, s, 0, s, s, s, s, 0, s, s]);
  // prettier-ignore
  const indices = new Uint32Array([
    0, 2, 1, 0, 3, 2, // z = 0
    4, 5, 6, 4, 6, 7, // z = s
    0, 1, 5, 0, 5, 4, // y = 0
    2, 3, 7, 2, 7, 6, // y = s
    1, 2, 6, 1, 6, 5, // x = s
    0, 4, 7, 0, 7, 3, // x = 0
  ]);
  return { positions, indices };
}

/** Ellipsoid with semi-axes a, b, c as a pole-closed loft (rings of constant polar angle). */
export function ellipsoid(a: number, b: number, c: number, rings: number, perRing: number): TriangleMesh {
  const options: LoftOptions = { ringCount: rings, ringSize: perRing };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  positions.set([0, 0, -c], 0);
  for (let r = 0; r < rings; r++) {
    const theta = (Math.PI * (r + 1)) / (rings + 1);
    for (let i = 0; i < perRing; i++) {
      const phi = (2 * Math.PI * i) / perRing;
      const v = loftRingVertex(options, r, i) * 3;
      positions[v] = a * Math.sin(theta) * Math.cos(phi);
      positions[v + 1] = b * Math.sin(theta) * Math.sin(phi);
      positions[v + 2] = -c * Math.cos(theta);
    }
  }
  positions.set([0, 0, c], positions.length - 3);
  return { positions, indices: loftIndices(options) };
}
