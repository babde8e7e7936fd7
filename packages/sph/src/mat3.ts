/**
 * 3×3 matrices stored row-major as 9 consecutive numbers of a Float64Array at an offset (a_rc = a[o + 3r + c]).
 * The solid keeps one tensor per particle this way (particle-major, 9 per particle); in 2D the z row and column
 * are those of the identity (plane strain). Functions write into caller-owned storage: nothing is allocated.
 */

/** Writes the identity at `o`. */
export function setIdentity(a: Float64Array, o: number): void {
  a.fill(0, o, o + 9);
  a[o] = 1;
  a[o + 4] = 1;
  a[o + 8] = 1;
}

/** Determinant of the matrix at `o`. */
export function det3(a: Float64Array, o: number): number {
  const a00 = a[o]!;
  const a01 = a[o + 1]!;
  const a02 = a[o + 2]!;
  const a10 = a[o + 3]!;
  const a11 = a[o + 4]!;
  const a12 = a[o + 5]!;
  const a20 = a[o + 6]!;
  const a21 = a[o + 7]!;
  const a22 = a[o + 8]!;
  return a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20) + a02 * (a10 * a21 - a11 * a20);
}

/**
 * Inverse of the matrix at `ao` into `out` at `oo` (may alias). Returns the determinant; a singular matrix
 * (|det| below 1e-300) leaves `out` untouched and returns 0.
 */
export function invert3(a: Float64Array, ao: number, out: Float64Array, oo: number): number {
  const a00 = a[ao]!;
  const a01 = a[ao + 1]!;
  const a02 = a[ao + 2]!;
  const a10 = a[ao + 3]!;
  const a11 = a[ao + 4]!;
  const a12 = a[ao + 5]!;
  const a20 = a[ao + 6]!;
  const a21 = a[ao + 7]!;
  const a22 = a[ao + 8]!;
  const c00 = a11 * a22 - a12 * a21;
  const c01 = a12 * a20 - a10 * a22;
  const c02 = a10 * a21 - a11 * a20;
  const d = a00 * c00 + a01 * c01 + a02 * c02;
  if (Math.abs(d) < 1e-300) return 0;
  const inv = 1 / d;
  out[oo] = c00 * inv;
  out[oo + 1] = (a02 * a21 - a01 * a22) * inv;
  out[oo + 2] = (a01 * a12 - a02 * a11) * inv;
  out[oo + 3] = c01 * inv;
  out[oo + 4] = (a00 * a22 - a02 * a20) * inv;
  out[oo + 5] = (a02 * a10 - a00 * a12) * inv;
  out[oo + 6] = c02 * inv;
  out[oo + 7] = (a01 * a20 - a00 * a21) * inv;
  out[oo + 8] = (a00 * a11 - a01 * a10) * inv;
  return d;
}

/** out(oo) = a(ao) · b(bo). `out` must not alias `a` or `b`. */
export function multiply3(
  a: Float64Array,
  ao: number,
  b: Float64Array,
  bo: number,
  out: Float64Array,
  oo: number,
): void {
  for (let r = 0; r < 3; r++) {
    const ar0 = a[ao + 3 * r]!;
    const ar1 = a[ao + 3 * r + 1]!;
    const ar2 = a[ao + 3 * r + 2]!;
    for (let c = 0; c < 3; c++) {
      out[oo + 3 * r + c] = ar0 * b[bo + c]! + ar1 * b[bo + 3 + c]! + ar2 * b[bo + 6 + c]!;
    }
  }
}

/** out(oo) = aᵀ(ao) · a(ao), the right Cauchy–Green tensor C = FᵀF of a deformation gradient. */
export function transposeTimesSelf3(a: Float64Array, ao: number, out: Float64Array, oo: number): void {
  for (let r = 0; r < 3; r++) {
    for (let c = r; c < 3; c++) {
      const v = a[ao + r]! * a[ao + c]! + a[ao + 3 + r]! * a[ao + 3 + c]! + a[ao + 6 + r]! * a[ao + 6 + c]!;
      out[oo + 3 * r + c] = v;
      out[oo + 3 * c + r] = v;
    }
  }
}
