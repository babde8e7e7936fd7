/**
 * Test surfaces for registration: one continuous surface tessellated at two resolutions (so no vertex is shared),
 * a known smooth warp, and a shuffled vertex order — the situation of organ meshes modelled from imaging.
 */
import { mulberry32 } from '@insilico/stats';
import type { TestMesh } from './shapes';

type Point = [number, number, number];

/**
 * A closed surface given by its point at polar angle θ ∈ (0, π) and azimuth φ, tessellated with `rings` latitude
 * rings of `segments` points plus two poles (the caller's function is evaluated at θ = 0 and π for them).
 */
export function closedSurface(
  surface: (theta: number, phi: number) => Point,
  rings: number,
  segments: number,
): TestMesh {
  const points: number[] = [...surface(0, 0)];
  for (let i = 0; i < rings; i++)
    for (let j = 0; j < segments; j++)
      points.push(...surface((Math.PI * (i + 0.5)) / rings, (2 * Math.PI * j) / segments));
  points.push(...surface(Math.PI, 0));
  const south = 1 + rings * segments;
  const at = (i: number, j: number): number => 1 + i * segments + (j % segments);
  const triangles: number[] = [];
  for (let j = 0; j < segments; j++) triangles.push(0, at(0, j), at(0, j + 1));
  for (let i = 0; i + 1 < rings; i++)
    for (let j = 0; j < segments; j++)
      triangles.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
  for (let j = 0; j < segments; j++) triangles.push(south, at(rings - 1, j + 1), at(rings - 1, j));
  return { positions: Float64Array.from(points), indices: Uint32Array.from(triangles) };
}

/** An open tube given by its point at length fraction t ∈ [0, 1] and angle φ, with `rings` rings of `segments`. */
export function openTube(surface: (t: number, phi: number) => Point, rings: number, segments: number): TestMesh {
  const points: number[] = [];
  for (let i = 0; i < rings; i++)
    for (let j = 0; j < segments; j++) points.push(...surface(i / (rings - 1), (2 * Math.PI * j) / segments));
  const at = (i: number, j: number): number => i * segments + (j % segments);
  const triangles: number[] = [];
  for (let i = 0; i + 1 < rings; i++)
    for (let j = 0; j < segments; j++)
      triangles.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
  return { positions: Float64Array.from(points), indices: Uint32Array.from(triangles) };
}

/** An ellipsoid (30 × 20 × 15 mm) with bumps, so that no rotation or sliding maps it onto itself. */
export function bumpyEllipsoid(theta: number, phi: number): Point {
  const r = 1 + 0.12 * Math.sin(2 * phi + 0.4) * Math.sin(theta) ** 2 + 0.08 * Math.cos(theta) ** 3;
  return [30 * r * Math.sin(theta) * Math.cos(phi), 20 * r * Math.sin(theta) * Math.sin(phi), 15 * r * Math.cos(theta)];
}

/** An aortic-root-like tube: 50 mm long, curved, radius 12 mm with a three-lobed bulge (sinuses) near its start. */
export function rootLikeTube(t: number, phi: number): Point {
  const bulge = 4 * Math.exp(-(((t - 0.3) / 0.15) ** 2)) * (0.6 + 0.4 * Math.cos(3 * phi));
  const r = 12 + bulge - 1.5 * t;
  const z = 50 * t;
  return [r * Math.cos(phi) + 8 * Math.sin((Math.PI * t) / 2) ** 2, r * Math.sin(phi), z];
}

/** A smooth warp (mm): a sideways bend, a taper and a twist; a few mm over a 50–60 mm shape. */
export function warp(p: readonly number[] | Float64Array, offset = 0): Point {
  const x = p[offset]!;
  const y = p[offset + 1]!;
  const z = p[offset + 2]!;
  return [x + 4 * Math.sin(z / 25) + 0.05 * y, y * (1 + z / 150), z + 3 * Math.cos(x / 30)];
}

/** Every vertex moved by {@link warp}. */
export function warped(mesh: TestMesh): TestMesh {
  const positions = new Float64Array(mesh.positions.length);
  for (let i = 0; i < positions.length; i += 3) positions.set(warp(mesh.positions, i), i);
  return { positions, indices: mesh.indices };
}

/** The same mesh with its vertices in a seeded random order (triangles renumbered): no order to rely on. */
export function shuffled(mesh: TestMesh, seed: number): TestMesh {
  const n = mesh.positions.length / 3;
  const order = Array.from({ length: n }, (_, i) => i);
  const random = mulberry32(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const newIndex = new Uint32Array(n);
  const positions = new Float64Array(n * 3);
  order.forEach((old, k) => {
    newIndex[old] = k;
    positions.set(mesh.positions.subarray(old * 3, old * 3 + 3), k * 3);
  });
  return { positions, indices: mesh.indices.map((v) => newIndex[v]!) };
}

/** Length of the bounding box's diagonal (mm): "the shape's size" of the tolerances. */
export function diagonal(positions: Float64Array): number {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, positions[i]!);
    max[i % 3] = Math.max(max[i % 3]!, positions[i]!);
  }
  return Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
}

/** Length (mm) of the mesh's longest triangle edge: the coarsest spacing of its vertices. */
export function longestEdge(mesh: TestMesh): number {
  const { positions: p, indices } = mesh;
  let longest = 0;
  for (let t = 0; t < indices.length; t += 3)
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]! * 3;
      const b = indices[t + ((e + 1) % 3)]! * 3;
      longest = Math.max(longest, Math.hypot(p[a]! - p[b]!, p[a + 1]! - p[b + 1]!, p[a + 2]! - p[b + 2]!));
    }
  return longest;
}
