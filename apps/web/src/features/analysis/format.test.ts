import { describe, expect, it } from 'vitest';
import { formatPValue, formatValue, roundPValue, roundTo } from './format';

describe('rounding as shown', () => {
  it('rounds to the decimals the page shows, leaving infinities alone', () => {
    expect(roundTo(412.345678, 2)).toBe(412.35);
    expect(formatValue(412.345678, 2)).toBe('412.35');
    expect(roundTo(0.1 + 0.2, 3)).toBe(0.3);
    expect(roundTo(Infinity, 1)).toBe(Infinity);
  });

  it('rounds p-values the way they are shown', () => {
    expect(roundPValue(0.0123456)).toBe(0.0123);
    expect(formatPValue(0.0123456)).toBe('0.0123');
    expect(roundPValue(0.000012345)).toBe(0.0000123);
    expect(formatPValue(0.000012345)).toBe('1.23e-5');
  });
});
