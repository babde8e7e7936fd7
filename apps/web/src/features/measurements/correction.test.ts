import { describe, expect, it } from 'vitest';
import { movedPlane } from './correction';

describe('a plane landmark moved by hand', () => {
  it('is raised along its normal and tilted about its axis by the given angle, the normal staying unit', () => {
    const moved = movedPlane({ position: [1, 2, 3], normal: [0, 0, 1], axis: [1, 0, 0] }, 2, 30)!;
    expect(moved.position).toEqual([1, 2, 5]);
    expect(Math.hypot(...moved.normal)).toBeCloseTo(1, 12);
    expect(moved.normal[2]).toBeCloseTo(Math.cos(Math.PI / 6), 12);
    // Tilted about x: the normal leans in the y–z plane only.
    expect(moved.normal[0]).toBeCloseTo(0, 12);
    expect(Math.abs(moved.normal[1])).toBeCloseTo(0.5, 12);
  });

  it('leaves a point landmark alone and tilts about some perpendicular when no axis is given', () => {
    expect(movedPlane({ position: [0, 0, 0] }, 1, 0)).toBeNull();
    const moved = movedPlane({ position: [0, 0, 0], normal: [1, 0, 0] }, 0, 10)!;
    expect(moved.normal[0]).toBeCloseTo(Math.cos((10 * Math.PI) / 180), 12);
  });
});
