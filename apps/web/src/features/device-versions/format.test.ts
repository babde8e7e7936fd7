import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatMeasure } from './format';

describe('device-version formats', () => {
  it('writes sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
    expect(formatBytes(1024 ** 3)).toBe('1 GB');
  });

  it('writes measures with four significant digits and counts with separators', () => {
    expect(formatMeasure(1000)).toBe('1,000');
    expect(formatMeasure(12345.6)).toBe('12,350');
    expect(formatMeasure(0.123456)).toBe('0.1235');
    expect(formatMeasure(-2.5)).toBe('−2.5');
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});
