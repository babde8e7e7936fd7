import { describe, expect, it } from 'vitest';
import { parseSsmInstance, ssmShapeLabel } from './ssm.service';

describe('shapes of a model by label', () => {
  it('names a shape in words for simulations on SSM rooms', () => {
    expect(ssmShapeLabel('mean')).toBe('mean shape');
    expect(ssmShapeLabel('2')).toBe('mode 1 +2 SD');
    expect(ssmShapeLabel('2,0,-1.5')).toBe('mode 1 +2 SD, mode 3 −1.5 SD');
    expect(ssmShapeLabel('0,0')).toBe('mean shape');
  });

  it('reads standard deviations per mode within ±3 SD and the model’s modes', () => {
    expect(parseSsmInstance('mean', 4)).toEqual([]);
    expect(parseSsmInstance('2,0,-1.5', 4)).toEqual([2, 0, -1.5]);
    expect(() => parseSsmInstance('3.5', 4)).toThrow(/at most 3 standard deviations/);
    expect(() => parseSsmInstance('1,1', 1)).toThrow(/1 modes/);
    expect(() => parseSsmInstance('one', 4)).toThrow(/mean/);
  });
});
