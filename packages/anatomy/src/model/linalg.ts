/**
 * Small dense linear algebra on row-major Float64Arrays (n × n) for the residual correlation model. The Cholesky
 * factor itself comes from @insilico/stats (`choleskyInPlace`), the one factorisation of the tree.
 */

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
