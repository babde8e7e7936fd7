/**
 * The numeric stepper's rules (spec §5 "Numeric stepper"), pure so they are tested without a DOM:
 * a typed value is clamped to min and max on blur or Enter; empty or non-numeric becomes the min (0 if the min is
 * negative); arrow keys step by the step size within bounds; the integer type parses integers.
 */
export type NumericKind = 'integer' | 'decimal';

export interface NumericBounds {
  min?: number;
  max?: number;
}

/** Clamps to the bounds that are given. */
export function clampToBounds(value: number, { min, max }: NumericBounds): number {
  let clamped = value;
  if (max !== undefined && clamped > max) clamped = max;
  if (min !== undefined && clamped < min) clamped = min;
  return clamped;
}

/** What empty or non-numeric text becomes: the min, or 0 when the min is negative (or absent), clamped to the max. */
export function fallbackValue(bounds: NumericBounds): number {
  const base = bounds.min === undefined || bounds.min < 0 ? 0 : bounds.min;
  return clampToBounds(base, bounds);
}

/**
 * The committed value of typed text: parsed as an integer (`parseInt`, so '12.7' is 12) or a decimal, then clamped.
 * Text that is not a number starts with none (`Number.parseFloat('3abc')` would read 3: a typo, not a 3).
 */
export function commitText(text: string, kind: NumericKind, bounds: NumericBounds): number {
  const trimmed = text.trim();
  if (trimmed === '' || !Number.isFinite(Number(trimmed))) return fallbackValue(bounds);
  const parsed = kind === 'integer' ? Number.parseInt(trimmed, 10) : Number(trimmed);
  if (!Number.isFinite(parsed)) return fallbackValue(bounds);
  return clampToBounds(parsed, bounds);
}

/** One arrow-key step (direction +1 up, -1 down) by the step size, kept within bounds. */
export function stepValue(value: number, direction: 1 | -1, step: number, kind: NumericKind, bounds: NumericBounds) {
  const raw = value + direction * step;
  // 0.1 + 0.2: round to the step's decimals so a decimal stepper shows 0.3, not 0.30000000000000004.
  const decimals = kind === 'integer' ? 0 : decimalsOf(step);
  const rounded = kind === 'integer' ? Math.round(raw) : Number(raw.toFixed(Math.min(decimals, 12)));
  return clampToBounds(rounded, bounds);
}

function decimalsOf(step: number): number {
  const text = String(step);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * Typed text for a field whose empty or zero entry is ignored (spec §5 "Bin size: empty or zero is ignored"): the
 * number, or null to keep the value shown.
 */
export function typedOrIgnored(text: string, kind: NumericKind): number | null {
  const trimmed = text.trim();
  if (trimmed === '' || !Number.isFinite(Number(trimmed))) return null;
  const parsed = kind === 'integer' ? Number.parseInt(trimmed, 10) : Number(trimmed);
  return parsed === 0 ? null : parsed;
}
