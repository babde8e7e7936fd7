import { describe, expect, it } from 'vitest';
import { ball, box, boxContainerWall, channelWalls, countLatticePoints, particlesFromShape } from './geometry';

describe('geometry to particles', () => {
  it('reproduces the SPHinXsys dam-break particle counts at dp 0.025', () => {
    const dp = 0.025;
    expect(countLatticePoints(box([0, 0, 0], [2, 1, 0]), dp, 2)).toBe(3200);
    const wall = boxContainerWall([0, 0, 0], [5.366, 5.366, 0], 4 * dp, dp, 2, 1);
    expect(wall.count).toBe(3504);
  });

  it('reproduces the SPHinXsys 3D dam-break particle counts at dp 0.05', () => {
    const dp = 0.05;
    expect(countLatticePoints(box([0, 0, 0], [2, 1, 0.5]), dp, 3)).toBe(8000);
    expect(boxContainerWall([0, 0, 0], [5.366, 2, 0.5], 4 * dp, dp, 3, 1).count).toBe(56560);
  });

  it('fills a box in 3D and a disc / ball with the right volume', () => {
    const dp = 0.05;
    expect(countLatticePoints(box([0, 0, 0], [1, 0.5, 0.25]), dp, 3)).toBe(20 * 10 * 5);
    const disc = particlesFromShape(ball([0, 0, 0], 0.5, 2), dp, 2, 1000);
    expect(disc.count * dp * dp).toBeCloseTo(Math.PI * 0.25, 1);
    expect(disc.mass[0]).toBeCloseTo(1000 * dp * dp, 12);
    const sphere = countLatticePoints(ball([0, 0, 0], 0.5, 3), dp, 3);
    expect(Math.abs((sphere * dp ** 3) / ((4 / 3) * Math.PI * 0.125) - 1)).toBeLessThan(0.02);
  });

  it('gives container walls unit normals pointing into the container', () => {
    const dp = 0.1;
    const wall = boxContainerWall([0, 0, 0], [1, 1, 0], 0.3, dp, 2, 1);
    for (let i = 0; i < wall.count; i++) {
      const n = Math.hypot(wall.nx[i]!, wall.ny[i]!);
      expect(n).toBeCloseTo(1, 12);
      // Stepping along the normal reaches the inside of the box.
      const d = Math.hypot(Math.max(0, -wall.x[i]!, wall.x[i]! - 1), Math.max(0, -wall.y[i]!, wall.y[i]! - 1));
      const x = wall.x[i]! + wall.nx[i]! * (d + 1e-9);
      const y = wall.y[i]! + wall.ny[i]! * (d + 1e-9);
      expect(x).toBeGreaterThanOrEqual(-1e-9);
      expect(y).toBeGreaterThanOrEqual(-1e-9);
    }
    const open = boxContainerWall([0, 0, 0], [1, 1, 0], 0.3, dp, 2, 1, ['y+']);
    // The top wall goes above the container span (10 columns × 3 layers); the side walls keep their height.
    expect(open.count).toBe(wall.count - 10 * 3);
  });

  it('builds channel walls with ±y normals', () => {
    const wall = channelWalls(0, 6, 0, 1, 4, 0.05, 2, 1);
    expect(wall.count).toBe(2 * 4 * 120);
    expect(wall.ny[0]).toBe(1);
    expect(wall.ny[wall.count - 1]).toBe(-1);
    expect(wall.y[0]).toBeCloseTo(-0.175, 12);
  });
});
