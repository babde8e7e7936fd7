/**
 * Decimal number from ASCII bytes, without building a string on the common path (ASCII STL files hold millions of
 * coordinates). Syntax: [+-] digits [. digits] [e|E [+-] digits], or a leading/trailing point (".5", "5."), or
 * nan / inf / infinity in any case. Returns null for anything else.
 *
 * Fast path (Clinger): up to 15 significant digits and a decimal exponent within ±22 give an exactly representable
 * mantissa and power of ten, so one multiplication or division is correctly rounded. Everything else goes to
 * `Number()`, which is correctly rounded too, so both paths give the same double for the same text. With
 * `float32`, the result is `Math.fround(Number(text))`, found without `Number()` also for long digit strings
 * whenever their first 15 digits settle it (nearly always).
 */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

export function parseDecimal(bytes: Uint8Array, start: number, end: number, float32 = false): number | null {
  let i = start;
  let negative = false;
  if (i < end && (bytes[i] === 43 || bytes[i] === 45)) {
    negative = bytes[i] === 45;
    i++;
  }
  if (i < end && isLetter(bytes[i] as number)) return special(bytes, i, end, negative);
  let mantissa = 0;
  let significant = 0;
  let digits = 0;
  let exponent = 0;
  let exact = true;
  let point = false;
  for (; i < end; i++) {
    const b = bytes[i] as number;
    if (b === 46 && !point) {
      point = true;
      continue;
    }
    const d = b - 48;
    if (d < 0 || d > 9) break;
    digits++;
    if (significant < 15) {
      if (mantissa !== 0 || d !== 0) significant++;
      mantissa = mantissa * 10 + d;
      if (point) exponent--;
    } else {
      exact = false; // more digits than the fast path holds exactly
      if (!point) exponent++;
    }
  }
  if (digits === 0) return null;
  if (i < end && (bytes[i] === 101 || bytes[i] === 69)) {
    i++;
    let expNegative = false;
    if (i < end && (bytes[i] === 43 || bytes[i] === 45)) {
      expNegative = bytes[i] === 45;
      i++;
    }
    let e = 0;
    let expDigits = 0;
    for (; i < end; i++) {
      const d = (bytes[i] as number) - 48;
      if (d < 0 || d > 9) break;
      expDigits++;
      if (e < 100_000) e = e * 10 + d;
    }
    if (expDigits === 0) return null;
    exponent += expNegative ? -e : e;
  }
  if (i !== end) return null;
  if (exponent >= -22 && exponent <= 22) {
    if (exact) {
      const value = float32 ? Math.fround(scale(mantissa, exponent)) : scale(mantissa, exponent);
      return negative ? -value : value;
    }
    if (float32) {
      // The text lies in [m, m + 1) · 10^e for the first 15 digits m; rounding is monotonic, so when both ends
      // round to the same float32, so does the text (and so does Number(text)).
      const low = Math.fround(scale(mantissa, exponent));
      if (low === Math.fround(scale(mantissa + 1, exponent))) return negative ? -low : low;
    }
  }
  const value = Number(latin1(bytes, start, end));
  return float32 ? Math.fround(value) : value;
}

/** m · 10^e, correctly rounded for m < 2⁵³ and |e| ≤ 22 (both factors are exact doubles). */
function scale(m: number, e: number): number {
  return e < 0 ? m / (POW10[-e] as number) : m * (POW10[e] as number);
}

function isLetter(b: number): boolean {
  const lower = b | 0x20;
  return lower >= 97 && lower <= 122;
}

function special(bytes: Uint8Array, i: number, end: number, negative: boolean): number | null {
  const word = latin1(bytes, i, end).toLowerCase();
  if (word === 'nan') return NaN;
  if (word === 'inf' || word === 'infinity') return negative ? -Infinity : Infinity;
  return null;
}

/** Bytes as a string, one char per byte (ASCII text; short tokens only). */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i] as number);
  return s;
}
