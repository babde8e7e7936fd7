import type { TriangleMesh } from '@insilico/mesh';

// Closed test meshes (coordinates in mm) shared by the mesh-shape and relaxation tests.

/** Outward-oriented unit cube [0, s]³ (mm), two triangles per face: lattice lines hit the face diagonals. */
export function cube(s: number): TriangleMesh {
  const positions = new Float64Array([0, 0, 0, s, 0, 0, s, s, 0, 0, s, 0, 0, 0, s, s, 0, s, s, s, s, 0, s, s]);
  // prettier-ignore
  const indices = new Uint32Array([
    0, 2, 1, 0, 3, 2, // z = 0
    4, 5, 6, 4, 6, 7, // z = s
    0, 1, 5, 0, 5, 4, // y = 0
    3, 7, 6, 3, 6, 2, // y = s
    0, 4, 7, 0, 7, 3, // x = 0
    1, 2, 6, 1, 6, 5, // x = s
  ]);
  return { positions, indices };
}

/** Outward-oriented UV sphere of radius r (mm) about the origin. */
export function sphere(r: number, rings: number, segments: number): TriangleMesh {
  const positions: number[] = [0, 0, r];
  for (let i = 1; i < rings; i++) {
    const theta = (Math.PI * i) / rings;
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      positions.push(r * Math.sin(theta) * Math.cos(phi), r * Math.sin(theta) * Math.sin(phi), r * Math.cos(theta));
    }
  }
  positions.push(0, 0, -r);
  const south = positions.length / 3 - 1;
  const at = (i: number, j: number): number => 1 + (i - 1) * segments + (j % segments);
  const indices: number[] = [];
  for (let j = 0; j < segments; j++) indices.push(0, at(1, j), at(1, j + 1));
  for (let i = 1; i < rings - 1; i++) {
    for (let j = 0; j < segments; j++) {
      indices.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  }
  for (let j = 0; j < segments; j++) indices.push(south, at(rings - 1, j + 1), at(rings - 1, j));
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

/**
 * Outward-oriented closed tube (a capped polygonal cylinder) of radius r (mm) along x from x0 to x1, `segments`
 * around, `slices` along (ring vertices on the circle, so the polygon is inscribed).
 */
export function tube(r: number, x0: number, x1: number, segments: number, slices = 1): TriangleMesh {
  const positions: number[] = [];
  for (let i = 0; i <= slices; i++) {
    const x = x0 + ((x1 - x0) * i) / slices;
    for (let j = 0; j < segments; j++) {
      const a = (2 * Math.PI * j) / segments;
      positions.push(x, r * Math.cos(a), r * Math.sin(a));
    }
  }
  const first = positions.length / 3;
  positions.push(x0, 0, 0, x1, 0, 0);
  const at = (i: number, j: number): number => i * segments + (j % segments);
  const indices: number[] = [];
  for (let i = 0; i < slices; i++) {
    for (let j = 0; j < segments; j++) {
      // Seen from outside (radially), (i, j) → (i, j + 1) → (i + 1, j + 1) runs counter-clockwise.
      indices.push(at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i + 1, j));
    }
  }
  for (let j = 0; j < segments; j++) {
    indices.push(first, at(0, j + 1), at(0, j));
    indices.push(first + 1, at(slices, j), at(slices, j + 1));
  }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}
