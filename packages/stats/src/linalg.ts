import { StatsInputError } from './errors';

/**
 * In-place Cholesky factorisation A = L·Lᵀ of a symmetric positive-definite row-major size × size
 * matrix; the lower triangle of `a` becomes L (upper triangle zeroed). Golub & Van Loan, Alg. 4.2.1.
 * @throws StatsInputError when A is not numerically positive definite (a pivot below 1e-12 of its diagonal entry:
 * a constant or collinear parameter).
 */
export function choleskyInPlace(a: Float64Array, size: number): Float64Array {
  for (let j = 0; j < size; j++) {
    const ajj = a[j * size + j] ?? 0;
    let d = ajj;
    for (let k = 0; k < j; k++) d -= (a[j * size + k] ?? 0) ** 2;
    // A pivot lost to rounding (relative 1e-12) means a constant or collinear parameter.
    if (!(d > 1e-12 * ajj))
      throw new StatsInputError(
        'The covariance matrix is singular: a parameter is constant or a combination of others.',
      );
    const ljj = Math.sqrt(d);
    a[j * size + j] = ljj;
    for (let i = j + 1; i < size; i++) {
      let s = a[i * size + j] ?? 0;
      for (let k = 0; k < j; k++) s -= (a[i * size + k] ?? 0) * (a[j * size + k] ?? 0);
      a[i * size + j] = s / ljj;
    }
    for (let k = j + 1; k < size; k++) a[j * size + k] = 0;
  }
  return a;
}

/** Eigen-decomposition of a symmetric matrix. */
export interface SymmetricEigen {
  /** Eigenvalues, descending. */
  values: Float64Array;
  /** Eigenvectors as columns of a row-major size × size matrix, in the order of `values`. */
  vectors: Float64Array;
}

/**
 * Eigenvalues and eigenvectors of a symmetric row-major size × size matrix by the cyclic Jacobi method
 * (Golub & Van Loan, Alg. 8.5.3; accurate to a few ulps for the small matrices of an analysis).
 * The input is not modified.
 */
export function symmetricEigen(input: Float64Array, size: number): SymmetricEigen {
  const a = Float64Array.from(input);
  const v = new Float64Array(size * size);
  for (let i = 0; i < size; i++) v[i * size + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    let total = 0;
    for (let p = 0; p < size; p++) {
      for (let q = 0; q < size; q++) {
        const x = (a[p * size + q] ?? 0) ** 2;
        total += x;
        if (p !== q) off += x;
      }
    }
    if (off <= 1e-30 * total || off === 0) break;
    for (let p = 0; p < size - 1; p++) {
      for (let q = p + 1; q < size; q++) {
        const apq = a[p * size + q] ?? 0;
        if (apq === 0) continue;
        const app = a[p * size + p] ?? 0;
        const aqq = a[q * size + q] ?? 0;
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < size; k++) {
          const akp = a[k * size + p] ?? 0;
          const akq = a[k * size + q] ?? 0;
          a[k * size + p] = c * akp - s * akq;
          a[k * size + q] = s * akp + c * akq;
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p * size + k] ?? 0;
          const aqk = a[q * size + k] ?? 0;
          a[p * size + k] = c * apk - s * aqk;
          a[q * size + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < size; k++) {
          const vkp = v[k * size + p] ?? 0;
          const vkq = v[k * size + q] ?? 0;
          v[k * size + p] = c * vkp - s * vkq;
          v[k * size + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: size }, (_, i) => i).sort(
    (x, y) => (a[y * size + y] ?? 0) - (a[x * size + x] ?? 0),
  );
  const values = new Float64Array(size);
  const vectors = new Float64Array(size * size);
  order.forEach((src, dst) => {
    values[dst] = a[src * size + src] ?? 0;
    for (let k = 0; k < size; k++) vectors[k * size + dst] = v[k * size + src] ?? 0;
  });
  return { values, vectors };
}
