import { describe, expect, it } from 'vitest';
import { deviationsOf, shapeLabel } from './SsmModeSliders';

describe('a shape label and the sliders’ values', () => {
  it('names the mean and drops trailing zeros', () => {
    expect(shapeLabel([0, 0, 0])).toBe('mean');
    expect(shapeLabel([2, 0, -1.5, 0])).toBe('2,0,-1.5');
  });

  it('reads a label back into one value per slider', () => {
    expect(deviationsOf('2,0,-1.5', 4)).toEqual([2, 0, -1.5, 0]);
    expect(deviationsOf('mean', 3)).toEqual([0, 0, 0]);
    expect(deviationsOf(null, 2)).toEqual([0, 0]);
    // Modes past the sliders are not shown; values the API would refuse read as the mean.
    expect(deviationsOf('1,1,1', 2)).toEqual([1, 1]);
    expect(deviationsOf('4,x', 2)).toEqual([0, 0]);
    expect(shapeLabel(deviationsOf('0.5,-3', 6))).toBe('0.5,-3');
  });
});
