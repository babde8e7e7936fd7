import { describe, expect, it } from 'vitest';
import { clampRegion } from './MaskRegionsDialog';

describe('a region to mask, as typed or drawn', () => {
  it('stays inside a 64 × 48 image in whole pixels, at least one pixel wide and high', () => {
    expect(clampRegion({ x: 10.4, y: 2.6, width: 20.5, height: 8 }, 48, 64)).toEqual({
      x: 10,
      y: 3,
      width: 21,
      height: 8,
    });
    expect(clampRegion({ x: -5, y: -1, width: 1000, height: 1000 }, 48, 64)).toEqual({
      x: 0,
      y: 0,
      width: 64,
      height: 48,
    });
    expect(clampRegion({ x: 100, y: 100, width: 0, height: -3 }, 48, 64)).toEqual({
      x: 63,
      y: 47,
      width: 1,
      height: 1,
    });
    expect(clampRegion({ x: Number.NaN, y: 0, width: Number.NaN, height: 4 }, 48, 64)).toEqual({
      x: 0,
      y: 0,
      width: 1,
      height: 4,
    });
  });
});
