import { enclosedVolume_mm3, readStl, writeBinaryStl, type TriangleMesh } from '@insilico/mesh';
import { describe, expect, it } from 'vitest';
import { countLatticePoints, particlesFromShape } from './geometry';
import { meshShape } from './meshShape';

/** Outward-oriented unit cube [0, s]³ (mm), two triangles per face: lattice lines hit the face diagonals. */
function cube(s: number): TriangleMesh {
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
function sphere(r: number, rings: number, segments: number): TriangleMesh {
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

describe('closed meshes to particles', () => {
  it('fills a cube exactly, including lattice lines through the face diagonals', () => {
    const shape = meshShape(cube(10)); // 10 mm cube → 0.01 m
    const dp = 0.001;
    expect(countLatticePoints(shape, dp, 3)).toBe(1000);
    // A lattice offset so that rays pass exactly through the diagonal edges and vertices of the faces.
    let inside = 0;
    for (let k = 0; k <= 10; k++) {
      for (let j = 0; j <= 10; j++) if (shape.contains(0.005, j * 0.001, k * 0.001)) inside++;
    }
    expect(inside).toBe(81); // the 9 × 9 interior grid points; the boundary ones are on the surface
    expect(shape.contains(0.005, 0.005, 0.005)).toBe(true);
    expect(shape.contains(0.011, 0.005, 0.005)).toBe(false);
    expect(shape.contains(-0.001, 0.005, 0.005)).toBe(false);
  });

  it('fills a sphere read from binary STL: particle volume within 2 % of the mesh volume', () => {
    const mesh = readStl(writeBinaryStl(sphere(10, 48, 96)));
    const dp = 0.001; // R / dp = 10
    const particles = particlesFromShape(meshShape(mesh), dp, 3, 1000);
    const meshVolume = enclosedVolume_mm3(mesh) * 1e-9;
    expect(Math.abs((particles.count * dp ** 3) / meshVolume - 1)).toBeLessThan(0.02);
    for (let i = 0; i < particles.count; i++) {
      expect(Math.hypot(particles.x[i]!, particles.y[i]!, particles.z[i]!)).toBeLessThan(0.01);
    }
  });

  it('scales and offsets the mesh and refuses an empty one', () => {
    const shape = meshShape(cube(1), { scale: 1, offset: [2, 0, 0] });
    expect(shape.lower).toEqual([2, 0, 0]);
    expect(shape.upper).toEqual([3, 1, 1]);
    expect(countLatticePoints(shape, 0.1, 3)).toBe(1000);
    expect(() => meshShape({ positions: new Float32Array(0), indices: new Uint32Array(0) })).toThrow(/no triangles/);
  });
});
