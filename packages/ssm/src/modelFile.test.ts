import { describe, expect, it } from 'vitest';
import { decodeShapeModel, encodeShapeModel, modesForVariance } from './modelFile';
import { generalisedProcrustes } from './procrustes';
import { buildShapeModel, modelInstance } from './pca';
import { twoModeSet } from '../test/shapes';

describe('shape model file', () => {
  const set = twoModeSet();
  const model = buildShapeModel(generalisedProcrustes(set.shapes).aligned);

  it('round-trips: an instance from the file is within a micrometre of the float64 one', () => {
    const file = decodeShapeModel(encodeShapeModel(model, set.base.indices));
    expect(file.vertexCount).toBe(model.vertexCount);
    expect(file.modeCount).toBe(2);
    expect(Array.from(file.variances)).toEqual(Array.from(model.variances));
    expect(Array.from(file.indices)).toEqual(Array.from(set.base.indices));
    const a = modelInstance(model, [2, -1]);
    const b = modelInstance(file, [2, -1]);
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(1e-3 * 1);
  });

  it('refuses other bytes and truncated files', () => {
    expect(() => decodeShapeModel(new Uint8Array(20))).toThrow(/not a shape model/);
    const bytes = encodeShapeModel(model, set.base.indices);
    expect(() => decodeShapeModel(bytes.subarray(0, bytes.length - 4))).toThrow(/truncated/);
  });

  it('counts the modes that hold a share of the variance', () => {
    expect(modesForVariance(model, 0.5)).toBe(1);
    expect(modesForVariance(model, 0.95)).toBe(2);
  });
});
