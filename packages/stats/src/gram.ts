/**
 * Gram matrix G = XᵀX of a column-major rows × cols matrix (row-major cols × cols output): all column
 * dot products. Register-blocked 4 × 4 so each loaded value feeds four multiply-adds (a scalar analogue of
 * BLAS dsyrk). Allocation-free when `out` is given.
 * Shared by correlation, Mahalanobis distance, PCA and the shape models of @insilico/ssm.
 */
export function gramMatrix(
  x: Float64Array,
  rows: number,
  cols: number,
  out: Float64Array = new Float64Array(cols * cols),
): Float64Array {
  const blocked = cols - (cols % 4);
  for (let a = 0; a < blocked; a += 4) {
    for (let b = a; b < blocked; b += 4) gramBlock4x4(x, rows, cols, a, b, out);
  }
  // Remaining columns (cols not a multiple of 4): plain dot products.
  for (let a = 0; a < cols; a++) {
    for (let b = Math.max(a, blocked); b < cols; b++) {
      const oa = a * rows;
      const ob = b * rows;
      let s = 0;
      for (let i = 0; i < rows; i++) s += (x[oa + i] as number) * (x[ob + i] as number);
      out[a * cols + b] = s;
      out[b * cols + a] = s;
    }
  }
  return out;
}

function gramBlock4x4(x: Float64Array, rows: number, cols: number, a: number, b: number, out: Float64Array): void {
  const a0 = a * rows;
  const a1 = a0 + rows;
  const a2 = a1 + rows;
  const a3 = a2 + rows;
  const b0 = b * rows;
  const b1 = b0 + rows;
  const b2 = b1 + rows;
  const b3 = b2 + rows;
  let s00 = 0,
    s01 = 0,
    s02 = 0,
    s03 = 0;
  let s10 = 0,
    s11 = 0,
    s12 = 0,
    s13 = 0;
  let s20 = 0,
    s21 = 0,
    s22 = 0,
    s23 = 0;
  let s30 = 0,
    s31 = 0,
    s32 = 0,
    s33 = 0;
  for (let i = 0; i < rows; i++) {
    const x0 = x[a0 + i] as number;
    const x1 = x[a1 + i] as number;
    const x2 = x[a2 + i] as number;
    const x3 = x[a3 + i] as number;
    const y0 = x[b0 + i] as number;
    const y1 = x[b1 + i] as number;
    const y2 = x[b2 + i] as number;
    const y3 = x[b3 + i] as number;
    s00 += x0 * y0;
    s01 += x0 * y1;
    s02 += x0 * y2;
    s03 += x0 * y3;
    s10 += x1 * y0;
    s11 += x1 * y1;
    s12 += x1 * y2;
    s13 += x1 * y3;
    s20 += x2 * y0;
    s21 += x2 * y1;
    s22 += x2 * y2;
    s23 += x2 * y3;
    s30 += x3 * y0;
    s31 += x3 * y1;
    s32 += x3 * y2;
    s33 += x3 * y3;
  }
  const sums = [s00, s01, s02, s03, s10, s11, s12, s13, s20, s21, s22, s23, s30, s31, s32, s33];
  for (let p = 0; p < 4; p++) {
    for (let q = 0; q < 4; q++) {
      const s = sums[p * 4 + q] as number;
      out[(a + p) * cols + (b + q)] = s;
      out[(b + q) * cols + (a + p)] = s;
    }
  }
}
