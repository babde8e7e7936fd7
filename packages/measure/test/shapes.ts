import { loftIndices, loftRingVertex, loftVertexCount, type TriangleMesh64 } from '@insilico/mesh';

/**
 * Closed, outward-oriented test meshes with known answers, built as ring lofts closed by a pole at each end:
 * rings counter-clockwise seen from +z, advancing towards +z.
 */
function lofted(
  ringCount: number,
  ringSize: number,
  ring: (r: number, i: number) => [number, number, number],
  bottom: [number, number, number],
  top: [number, number, number],
): TriangleMesh64 {
  const options = { ringCount, ringSize };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  positions.set(bottom, 0);
  for (let r = 0; r < ringCount; r++)
    for (let i = 0; i < ringSize; i++) positions.set(ring(r, i), loftRingVertex(options, r, i) * 3);
  positions.set(top, positions.length - 3);
  return { positions, indices: loftIndices(options) };
}

/** Elliptic cylinder with semi-axes a (x) and b (y), mm, from z = −h/2 to h/2, capped by fans. */
export function ellipticCylinder(a: number, b: number, h: number, ringSize: number, rings = 9): TriangleMesh64 {
  return lofted(
    rings,
    ringSize,
    (r, i) => {
      const t = (2 * Math.PI * i) / ringSize;
      return [a * Math.cos(t), b * Math.sin(t), -h / 2 + (h * r) / (rings - 1)];
    },
    [0, 0, -h / 2],
    [0, 0, h / 2],
  );
}

/** Cone of base radius R at z = 0 and apex at z = H, mm. */
export function cone(radius: number, height: number, ringSize: number, rings: number): TriangleMesh64 {
  return lofted(
    rings,
    ringSize,
    (r, i) => {
      const z = (height * r) / rings;
      const t = (2 * Math.PI * i) / ringSize;
      const rr = radius * (1 - z / height);
      return [rr * Math.cos(t), rr * Math.sin(t), z];
    },
    [0, 0, 0],
    [0, 0, height],
  );
}

/** Sphere of radius r centred at the origin (latitude rings, poles on the z axis), mm. */
export function sphere(radius: number, ringSize: number, rings: number): TriangleMesh64 {
  return lofted(
    rings,
    ringSize,
    (r, i) => {
      const phi = Math.PI * (1 - (r + 1) / (rings + 1));
      const t = (2 * Math.PI * i) / ringSize;
      return [radius * Math.sin(phi) * Math.cos(t), radius * Math.sin(phi) * Math.sin(t), radius * Math.cos(phi)];
    },
    [0, 0, -radius],
    [0, 0, radius],
  );
}

/** The mesh moved by (dx, dy, dz), a copy. */
export function translated(mesh: TriangleMesh64, dx: number, dy: number, dz: number): TriangleMesh64 {
  const positions = Float64Array.from(mesh.positions);
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = (positions[i] as number) + dx;
    positions[i + 1] = (positions[i + 1] as number) + dy;
    positions[i + 2] = (positions[i + 2] as number) + dz;
  }
  return { positions, indices: mesh.indices };
}

/** Two meshes as one (indices of the second shifted). */
export function merged(a: TriangleMesh64, b: TriangleMesh64): TriangleMesh64 {
  const positions = new Float64Array(a.positions.length + b.positions.length);
  positions.set(a.positions, 0);
  positions.set(b.positions, a.positions.length);
  const indices = new Uint32Array(a.indices.length + b.indices.length);
  indices.set(a.indices, 0);
  const shift = a.positions.length / 3;
  for (let i = 0; i < b.indices.length; i++) indices[a.indices.length + i] = (b.indices[i] as number) + shift;
  return { positions, indices };
}
