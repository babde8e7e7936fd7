import { describe, expect, it } from 'vitest';
import { heatColor, heatmapPixels, maxCount } from './heatmapImage';

describe('heatmap image', () => {
  it('puts timestep on x and the lowest bin at the bottom', () => {
    // Two timesteps, three bins: t0 has one particle in bin 0, t1 three in bin 2.
    const pixels = heatmapPixels([Uint32Array.from([1, 0, 0]), Uint32Array.from([0, 0, 3])], 3);
    const alpha = (x: number, y: number) => pixels[(y * 2 + x) * 4 + 3];
    expect(alpha(0, 2)).toBe(255); // t0, bin 0 → bottom row
    expect(alpha(1, 0)).toBe(255); // t1, bin 2 → top row
    expect(alpha(0, 0)).toBe(0);
    expect(alpha(1, 1)).toBe(0);
    // The largest count has the top colour.
    expect([...pixels.slice(4, 7)]).toEqual(heatColor(1).map(Math.round));
  });

  it('spans the colour scale from its first to its last stop', () => {
    expect(heatColor(0)).toEqual([68, 1, 84]);
    expect(heatColor(1)).toEqual([253, 231, 37]);
    expect(heatColor(2)).toEqual([253, 231, 37]);
  });

  it('draws a 999 × 999 matrix', () => {
    const rows = Array.from({ length: 999 }, (_, t) => Uint32Array.from({ length: 999 }, (_, b) => (t + b) % 5));
    expect(maxCount(rows)).toBe(4);
    expect(heatmapPixels(rows, 999)).toHaveLength(999 * 999 * 4);
  });
});
