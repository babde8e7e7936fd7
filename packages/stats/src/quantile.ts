/**
 * Copies the finite values of `values` and sorts them ascending. Non-finite values (missing
 * measurements) are dropped.
 */
export function sortedFinite(values: ArrayLike<number>): Float64Array {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i] ?? Number.NaN)) n++;
  const out = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? Number.NaN;
    if (Number.isFinite(v)) out[k++] = v;
  }
  return out.sort();
}

/**
 * The `p`-th percentile (0–100) of ascending `sorted` values by linear interpolation between
 * closest ranks — numpy's default `numpy.percentile(x, p, method="linear")` (Hyndman & Fan type 7).
 * Same unit as the values; NaN when empty.
 */
export function percentileOfSorted(sorted: Float64Array, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  if (lo >= n - 1) return sorted[n - 1] ?? Number.NaN;
  if (lo < 0) return sorted[0] ?? Number.NaN;
  const t = h - lo;
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[lo + 1] ?? Number.NaN;
  // numpy's _lerp: interpolate from the nearer end for accuracy.
  return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
}
