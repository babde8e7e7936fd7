import {
  loftIndices,
  loftRingVertex,
  loftVertexCount,
  type LoftOptions,
  type Vec3,
  type TriangleMesh64,
} from '@insilico/mesh';

/** Rings between the poles and vertices per ring of full ellipsoids (atria, lungs). */
export const ELLIPSOID_RINGS = 23;
/** Vertices per ring of full ellipsoids. */
export const ELLIPSOID_RING_SIZE = 48;

/**
 * Closed axis-aligned ellipsoid mesh (mm) with semi-axes `radii` whose lowest point (the −z pole) is `bottom`;
 * rings of constant polar angle between the poles.
 */
export function ellipsoidMesh(radii: Vec3, bottom: Vec3): TriangleMesh64 {
  const options: LoftOptions = { ringCount: ELLIPSOID_RINGS, ringSize: ELLIPSOID_RING_SIZE };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  const [a, b, c] = radii;
  const cx = bottom[0];
  const cy = bottom[1];
  const cz = bottom[2] + c;
  positions[0] = cx;
  positions[1] = cy;
  positions[2] = bottom[2];
  for (let j = 0; j < ELLIPSOID_RINGS; j++) {
    const t = (Math.PI * (j + 1)) / (ELLIPSOID_RINGS + 1);
    const s = Math.sin(t);
    const z = cz - c * Math.cos(t);
    for (let i = 0; i < ELLIPSOID_RING_SIZE; i++) {
      const phi = (2 * Math.PI * i) / ELLIPSOID_RING_SIZE;
      const v = loftRingVertex(options, j, i) * 3;
      positions[v] = cx + a * s * Math.cos(phi);
      positions[v + 1] = cy + b * s * Math.sin(phi);
      positions[v + 2] = z;
    }
  }
  const top = positions.length - 3;
  positions[top] = cx;
  positions[top + 1] = cy;
  positions[top + 2] = cz + c;
  return { positions, indices: loftIndices(options) };
}
