import { describe, expect, it } from 'vitest';
import { SsmInputError } from './errors';
import { landmarkModes, landmarksAt } from './landmarkModes';
import { buildShapeModel, modelInstance, projectShape } from './pca';
import { generalisedProcrustes } from './procrustes';
import { twoModeSet } from '../test/shapes';

/**
 * A landmark that is a linear function of the shape's vertices (the centroid of a few vertices, a difference of
 * two as a direction): its value on any shape of the model's span is known without the model.
 */
function landmarkOf(shape: ArrayLike<number>): number[] {
  const centroid = [0, 0, 0];
  for (const v of [3, 10, 17, 40])
    for (let a = 0; a < 3; a++) centroid[a] = centroid[a]! + (shape[3 * v + a] as number) / 4;
  const direction = [0, 1, 2].map((a) => (shape[3 * 50 + a] as number) - (shape[3 * 20 + a] as number));
  return [...centroid, ...direction];
}

describe('landmarkModes', () => {
  const set = twoModeSet();
  const { aligned } = generalisedProcrustes(set.shapes);
  const model = buildShapeModel(aligned);
  const coefficients = aligned.map((x) => projectShape(model, x));
  const vectors = aligned.map(landmarkOf);
  const mean = vectors.reduce((m, v) => m.map((x, i) => x + v[i]! / vectors.length), [0, 0, 0, 0, 0, 0]);
  const modes = landmarkModes(coefficients, model.variances, vectors);

  it('gives each training shape its own landmarks back', () => {
    aligned.forEach((_, j) => {
      const z = Array.from(coefficients[j]!, (b, k) => b / Math.sqrt(model.variances[k]!));
      landmarksAt(mean, modes, z).forEach((v, i) => expect(v).toBeCloseTo(vectors[j]![i]!, 9));
    });
  });

  it('carries a landmark that is linear in the shape exactly onto a new instance', () => {
    const z = [1.7, -2.4];
    const expected = landmarkOf(modelInstance(model, z));
    landmarksAt(mean, modes, z).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 9));
  });

  it('refuses landmarks of a different size or of too few shapes', () => {
    expect(() => landmarkModes(coefficients, model.variances, [...vectors.slice(1), [1, 2, 3]])).toThrow(SsmInputError);
    expect(() => landmarkModes(coefficients.slice(0, 1), model.variances, vectors.slice(0, 1))).toThrow(SsmInputError);
  });
});
