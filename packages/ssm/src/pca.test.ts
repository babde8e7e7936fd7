import { mulberry32, symmetricEigen } from '@insilico/stats';
import { describe, expect, it } from 'vitest';
import { generalisedProcrustes } from './procrustes';
import { buildShapeModel, modelInstance, projectShape } from './pca';
import { twoModeSet } from '../test/shapes';

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
};

describe('buildShapeModel on a set with two known modes', () => {
  const set = twoModeSet();
  const aligned = generalisedProcrustes(set.shapes).aligned;
  const model = buildShapeModel(aligned);
  const d = set.base.positions.length;

  it('finds exactly the two modes, in order, with variances s²/(N − 1) of the amplitudes', () => {
    expect(model.modeCount).toBe(2);
    const varA = set.amplitudes.reduce((s, [a]) => s + a * a, 0) / (set.amplitudes.length - 1);
    const varB = set.amplitudes.reduce((s, [, b]) => s + b * b, 0) / (set.amplitudes.length - 1);
    expect(model.variances[0]).toBeCloseTo(varA, 8); // 640/7 mm²
    expect(model.variances[1]).toBeCloseTo(varB, 8); // 72/7 mm²
    expect(model.explained[0]! + model.explained[1]!).toBeCloseTo(1, 12);
    // A mode is its direction up to the sign; GPA's frame is the first shape's, so compare after its rotation.
    const mode = (k: number) => model.modes.subarray(k * d, (k + 1) * d);
    const frame = generalisedProcrustes([set.base.positions, ...set.shapes], { reference: 1 }).transforms[0]!;
    const rotate = (v: Float64Array) => {
      const out = new Float64Array(v.length);
      const r = frame.rotation;
      for (let i = 0; i < v.length; i += 3)
        for (let a = 0; a < 3; a++)
          out[i + a] = r[a * 3]! * v[i]! + r[a * 3 + 1]! * v[i + 1]! + r[a * 3 + 2]! * v[i + 2]!;
      return out;
    };
    expect(Math.abs(dot(mode(0), rotate(set.modes[0])))).toBeCloseTo(1, 8);
    expect(Math.abs(dot(mode(1), rotate(set.modes[1])))).toBeCloseTo(1, 8);
  });

  it('an instance at +2 SD of mode 1 lies 2·√λ₁ mm along the mode from the mean', () => {
    const shape = modelInstance(model, [2, 0]);
    const b = projectShape(model, shape);
    expect(b[0]).toBeCloseTo(2 * Math.sqrt(model.variances[0]!), 10);
    expect(b[1]).toBeCloseTo(0, 10);
    const single = modelInstance(model, [2], new Float32Array(d));
    expect(single).toBeInstanceOf(Float32Array);
    expect(Math.abs(single[5]! - shape[5]!)).toBeLessThan(1e-4);
  });

  it('training coefficients reproduce the aligned shapes', () => {
    aligned.forEach((s, j) => {
      const b = projectShape(model, s);
      expect(b[0]).toBeCloseTo(model.coefficients[j * 2]!, 9);
      expect(b[1]).toBeCloseTo(model.coefficients[j * 2 + 1]!, 9);
    });
  });
});

describe('buildShapeModel against the 3V × 3V covariance (independent route)', () => {
  it('gives the covariance matrix’s eigenvalues and eigenvectors for random shapes', () => {
    const random = mulberry32(7);
    const n = 6;
    const d = 18; // 6 vertices
    const shapes = Array.from({ length: n }, () => Float64Array.from({ length: d }, () => random() * 10));
    const model = buildShapeModel(shapes);
    const mean = new Float64Array(d);
    for (const s of shapes) for (let i = 0; i < d; i++) mean[i] = mean[i]! + s[i]! / n;
    const cov = new Float64Array(d * d);
    for (const s of shapes)
      for (let i = 0; i < d; i++)
        for (let j = 0; j < d; j++)
          cov[i * d + j] = cov[i * d + j]! + ((s[i]! - mean[i]!) * (s[j]! - mean[j]!)) / (n - 1);
    const reference = symmetricEigen(cov, d);
    expect(model.modeCount).toBe(n - 1);
    for (let k = 0; k < n - 1; k++) {
      expect(model.variances[k]).toBeCloseTo(reference.values[k]!, 9);
      const column = Float64Array.from({ length: d }, (_, i) => reference.vectors[i * d + k]!);
      expect(Math.abs(dot(model.modes.subarray(k * d, (k + 1) * d), column))).toBeCloseTo(1, 9);
    }
  });

  it('refuses a single shape and shapes of different sizes', () => {
    expect(() => buildShapeModel([new Float64Array(9)])).toThrow(/at least two shapes/);
    expect(() => buildShapeModel([new Float64Array(9), new Float64Array(12)])).toThrow(/same number of vertices/);
  });
});
