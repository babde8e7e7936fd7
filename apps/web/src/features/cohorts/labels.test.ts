import { describe, expect, it } from 'vitest';
import { phaseTitle } from './labels';

describe('phaseTitle', () => {
  it('names heart phases and cine frames', () => {
    expect(phaseTitle('end-diastole')).toBe('End-diastole');
    expect(phaseTitle('cine-03of12')).toBe('Cine frame 3 of 12');
  });

  it('names the shapes a room on an SSM shows', () => {
    expect(phaseTitle('mean')).toBe('Mean shape');
    expect(phaseTitle('2')).toBe('Shape: mode 1 +2 SD');
    expect(phaseTitle('2,0,-1.5')).toBe('Shape: mode 1 +2 SD, mode 3 −1.5 SD');
    expect(phaseTitle('0,0')).toBe('Mean shape');
  });
});
