/**
 * Small dense linear algebra on row-major Float64Arrays (n × n), enough for the residual correlation model.
 */

/**
 * Cholesky factor L (lower triangular, row-major) with A = L·Lᵀ of a symmetric positive-definite matrix.
 * Throws if A is not positive definite (a pivot ≤ 1e-12).
 */
export function cholesky(a: Float64Array, n: number): Float64Array {
  if (a.length !== n * n) throw new RangeError(`cholesky: expected ${n * n} entries, got ${a.length}`);
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = a[i * n + j] ?? 0;
      for (let k = 0; k < j; k += 1) sum -= (l[i * n + k] ?? 0) * (l[j * n + k] ?? 0);
      if (i === j) {
        if (!(sum > 1e-12)) throw new RangeError(`cholesky: matrix is not positive definite (pivot ${i}: ${sum})`);
        l[i * n + i] = Math.sqrt(sum);
      } else {
        l[i * n + j] = sum / (l[j * n + j] ?? 1);
      }
    }
  }
  return l;
}

/** out = L·z for a lower-triangular row-major L (n × n); `out` must not alias `z`. Returns `out`. */
export function multiplyLower(l: Float64Array, z: Float64Array, n: number, out: Float64Array): Float64Array {
  for (let i = 0; i < n; i += 1) {
    let sum = 0;
    const row = i * n;
    for (let k = 0; k <= i; k += 1) sum += (l[row + k] ?? 0) * (z[k] ?? 0);
    out[i] = sum;
  }
  return out;
}
