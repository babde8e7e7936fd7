import { enclosedVolume_mm3, readStl, writeBinaryStl } from '@insilico/mesh';
import { describe, expect, it } from 'vitest';
import { countLatticePoints, particlesFromShape } from './geometry';
import { meshShape } from './meshShape';
import { cube, sphere, tube } from '../test/shapes';

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

  it('rays within rounding of an edge shared by two triangles count once (a capped tube, rays along a cap spoke)', () => {
    // The caps are fans from the axis; a ray along +x at y = z runs within rounding of the 45° spoke of the far cap,
    // where the two fan triangles evaluated the edge function in opposite orders and both missed it.
    const shape = meshShape(tube(0.5, -1, 1, 96), { scale: 1 });
    let inside = 0;
    for (let k = 1; k < 12; k++) if (shape.contains(0, k * 0.03, k * 0.03)) inside++;
    expect(inside).toBe(11);
    expect(shape.distance!(0, 0.3, 0.3)).toBeLessThan(0);
  });
});
