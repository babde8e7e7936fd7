import { describe, expect, it } from 'vitest';
import { clampToBounds, commitText, fallbackValue, stepValue, typedOrIgnored } from './numericStepperRules';

describe('numeric stepper rules (spec §5)', () => {
  it('clamps a typed value to min and max', () => {
    expect(commitText('1500', 'integer', { min: 1, max: 999 })).toBe(999);
    expect(commitText('-4', 'integer', { min: 1, max: 999 })).toBe(1);
    expect(commitText('42', 'integer', { min: 1, max: 999 })).toBe(42);
  });

  it('turns empty or non-numeric text into the min', () => {
    expect(commitText('', 'integer', { min: 5, max: 10 })).toBe(5);
    expect(commitText('  ', 'decimal', { min: 5, max: 10 })).toBe(5);
    expect(commitText('abc', 'integer', { min: 5, max: 10 })).toBe(5);
    expect(commitText('3abc', 'decimal', { min: 2, max: 10 })).toBe(2);
  });

  it('turns empty text into 0 when the min is negative', () => {
    expect(commitText('', 'decimal', { min: -10, max: 10 })).toBe(0);
    expect(commitText('x', 'integer', { min: -3 })).toBe(0);
    expect(fallbackValue({ min: -10, max: -5 })).toBe(-5);
  });

  it('parses integers for the integer type', () => {
    expect(commitText('12.7', 'integer', { min: 0, max: 100 })).toBe(12);
    expect(commitText('12.7', 'decimal', { min: 0, max: 100 })).toBe(12.7);
  });

  it('steps by the step size within bounds', () => {
    expect(stepValue(5, 1, 2, 'integer', { min: 0, max: 10 })).toBe(7);
    expect(stepValue(9, 1, 2, 'integer', { min: 0, max: 10 })).toBe(10);
    expect(stepValue(1, -1, 2, 'integer', { min: 0, max: 10 })).toBe(0);
    expect(stepValue(0.1, 1, 0.2, 'decimal', {})).toBe(0.3);
    expect(stepValue(0, -1, 1e-3, 'decimal', { min: -1 })).toBe(-0.001);
  });

  it('clamps only to the bounds given', () => {
    expect(clampToBounds(-5, { max: 3 })).toBe(-5);
    expect(clampToBounds(5, { min: 7 })).toBe(7);
  });

  it('ignores empty, zero or non-numeric text where asked (bin size)', () => {
    expect(typedOrIgnored('', 'decimal')).toBeNull();
    expect(typedOrIgnored('0', 'decimal')).toBeNull();
    expect(typedOrIgnored('0.000', 'decimal')).toBeNull();
    expect(typedOrIgnored('abc', 'decimal')).toBeNull();
    expect(typedOrIgnored('0.5', 'decimal')).toBe(0.5);
  });
});
