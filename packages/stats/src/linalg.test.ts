import { describe, expect, it } from 'vitest';
import { choleskyInPlace, symmetricEigen } from './linalg';
import { mulberry32 } from './random';

describe('linear algebra', () => {
  const size = 7;
  const random = mulberry32(3);
  const b = Float64Array.from({ length: size * size }, () => random() - 0.5);
  const a = new Float64Array(size * size); // a = bᵀb + I, symmetric positive definite
  for (let i = 0; i < size; i++)
    for (let j = 0; j < size; j++) {
      let s = i === j ? 1 : 0;
      for (let k = 0; k < size; k++) s += (b[k * size + i] ?? 0) * (b[k * size + j] ?? 0);
      a[i * size + j] = s;
    }

  it('Cholesky reproduces the matrix', () => {
    const l = choleskyInPlace(Float64Array.from(a), size);
    for (let i = 0; i < size; i++)
      for (let j = 0; j < size; j++) {
        let s = 0;
        for (let k = 0; k < size; k++) s += (l[i * size + k] ?? 0) * (l[j * size + k] ?? 0);
        expect(s).toBeCloseTo(a[i * size + j] ?? 0, 12);
      }
  });

  it('Jacobi eigenpairs satisfy A·v = λ·v, descending, orthonormal', () => {
    const { values, vectors } = symmetricEigen(a, size);
    for (let c = 0; c < size; c++) {
      if (c > 0) expect(values[c] ?? 0).toBeLessThanOrEqual(values[c - 1] ?? 0);
      for (let i = 0; i < size; i++) {
        let av = 0;
        for (let k = 0; k < size; k++) av += (a[i * size + k] ?? 0) * (vectors[k * size + c] ?? 0);
        expect(av).toBeCloseTo((values[c] ?? 0) * (vectors[i * size + c] ?? 0), 12);
      }
      for (let d = 0; d < size; d++) {
        let dot = 0;
        for (let k = 0; k < size; k++) dot += (vectors[k * size + c] ?? 0) * (vectors[k * size + d] ?? 0);
        expect(dot).toBeCloseTo(c === d ? 1 : 0, 12);
      }
    }
  });

  it('Mulberry32 is reproducible and uniform on [0, 1)', () => {
    const r1 = mulberry32(42);
    const r2 = mulberry32(42);
    let sum = 0;
    for (let i = 0; i < 10000; i++) {
      const v = r1();
      expect(v).toBe(r2());
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
      sum += v;
    }
    expect(sum / 10000).toBeCloseTo(0.5, 1);
  });
});
