import { mulberry32 } from '@insilico/stats';
import { describe, expect, it } from 'vitest';
import { buildSurfaceIndex, distanceToSurface, surfaceDistance } from './surfaceDistance';
import { ellipsoid } from '../test/shapes';

describe('distanceToSurface', () => {
  const triangle = buildSurfaceIndex(Float64Array.from([0, 0, 0, 10, 0, 0, 0, 10, 0]), Uint32Array.from([0, 1, 2]));

  it('measures to the face, an edge and a vertex of one triangle', () => {
    expect(distanceToSurface(triangle, 2, 2, 5)).toBeCloseTo(5, 12); // above the face
    expect(distanceToSurface(triangle, 5, -3, 4)).toBeCloseTo(5, 12); // beyond edge y = 0
    expect(distanceToSurface(triangle, 8, 8, 0)).toBeCloseTo(6 / Math.SQRT2, 12); // beyond the hypotenuse
    expect(distanceToSurface(triangle, -3, -4, 0)).toBeCloseTo(5, 12); // beyond vertex 0
  });

  it('matches a brute-force search over every triangle, inside, outside and far away', () => {
    const mesh = ellipsoid([30, 20, 15], 12, 24);
    const index = buildSurfaceIndex(mesh.positions, mesh.indices);
    const single = (t: number) =>
      buildSurfaceIndex(
        Float64Array.from(
          [0, 1, 2].flatMap((k) => [
            ...mesh.positions.subarray(mesh.indices[t * 3 + k]! * 3, mesh.indices[t * 3 + k]! * 3 + 3),
          ]),
        ),
        Uint32Array.from([0, 1, 2]),
      );
    const triangles = Array.from({ length: mesh.indices.length / 3 }, (_, t) => single(t));
    const random = mulberry32(3);
    for (let q = 0; q < 200; q++) {
      const scale = q < 100 ? 40 : 400;
      const p = [0, 1, 2].map(() => (random() - 0.5) * 2 * scale) as [number, number, number];
      const brute = Math.min(...triangles.map((t) => distanceToSurface(t, ...p)));
      expect(distanceToSurface(index, ...p)).toBeCloseTo(brute, 10);
    }
  });
});

describe('distanceToSurface with an upper bound', () => {
  it('gives the unbounded answer when the bound is a distance to a vertex of the surface', () => {
    const mesh = ellipsoid([30, 20, 15], 12, 24);
    const index = buildSurfaceIndex(mesh.positions, mesh.indices);
    const random = mulberry32(9);
    for (let q = 0; q < 300; q++) {
      const v = Math.floor(random() * (mesh.positions.length / 3)) * 3;
      const p = [0, 1, 2].map((a) => mesh.positions[v + a]! + (random() - 0.5) * 6) as [number, number, number];
      const bound = Math.hypot(p[0] - mesh.positions[v]!, p[1] - mesh.positions[v + 1]!, p[2] - mesh.positions[v + 2]!);
      expect(distanceToSurface(index, ...p, bound)).toBeCloseTo(distanceToSurface(index, ...p), 12);
    }
  });
});

describe('surfaceDistance', () => {
  it('is 0 for a shape and itself, and does not count vertices sliding along the surface', () => {
    const a = ellipsoid([30, 20, 15], 12, 24);
    const index = buildSurfaceIndex(a.positions, a.indices);
    expect(surfaceDistance(index, index)).toBe(0);
    // The same surface with its vertex labels shifted by one segment: vertex-to-vertex distance is large, surface 0.
    const rotated = ellipsoid([30, 20, 15], 12, 24);
    const shifted = Float64Array.from(rotated.positions);
    const segments = 24;
    for (let i = 0; i < 12; i++)
      for (let j = 0; j < segments; j++) {
        const from = (1 + i * segments + ((j + 1) % segments)) * 3;
        shifted.set(rotated.positions.subarray(from, from + 3), (1 + i * segments + j) * 3);
      }
    expect(surfaceDistance(buildSurfaceIndex(shifted, a.indices), index)).toBeLessThan(1e-9);
  });

  it('between concentric spheres is close to the difference of radii', () => {
    const inner = ellipsoid([20, 20, 20], 40, 80);
    const outer = ellipsoid([22, 22, 22], 40, 80);
    const d = surfaceDistance(
      buildSurfaceIndex(inner.positions, inner.indices),
      buildSurfaceIndex(outer.positions, outer.indices),
    );
    expect(d).toBeGreaterThan(1.95);
    expect(d).toBeLessThan(2.05);
  });
});
