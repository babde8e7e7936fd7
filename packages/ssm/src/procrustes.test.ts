import { describe, expect, it } from 'vitest';
import {
  applyTransform,
  centroidSize,
  generalisedProcrustes,
  optimalRotation,
  procrustesTransform,
} from './procrustes';
import { ellipsoid, moveRigidly, randomRigid, rotationMatrix } from '../test/shapes';

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
};

const det3 = (r: Float64Array): number =>
  r[0]! * (r[4]! * r[8]! - r[5]! * r[7]!) -
  r[1]! * (r[3]! * r[8]! - r[5]! * r[6]!) +
  r[2]! * (r[3]! * r[7]! - r[4]! * r[6]!);

describe('optimalRotation (Horn)', () => {
  it('recovers a known rotation of centred points to 1e-12', () => {
    const shape = ellipsoid([30, 20, 15]).positions;
    for (const seed of [1, 2, 3, 4]) {
      const { r } = randomRigid(seed);
      const target = moveRigidly(shape, r, [0, 0, 0]);
      expect(maxDiff(optimalRotation(shape, target), r)).toBeLessThan(1e-12);
    }
  });

  it('never returns a reflection, even towards a mirrored shape', () => {
    const shape = ellipsoid([30, 20, 15]).positions;
    const mirrored = shape.map((v, i) => (i % 3 === 0 ? -v : v));
    expect(det3(optimalRotation(shape, mirrored))).toBeCloseTo(1, 12);
  });
});

describe('procrustesTransform', () => {
  it('recovers rotation, translation and, when allowed, scale', () => {
    const shape = ellipsoid([30, 20, 15]).positions;
    const r = rotationMatrix([1, 2, 3], 0.7);
    const target = moveRigidly(
      shape.map((v) => 1.7 * v),
      r,
      [10, -20, 5],
    );
    const t = procrustesTransform(shape, target, true);
    expect(t.scale).toBeCloseTo(1.7, 12);
    expect(maxDiff(applyTransform(shape, t), target)).toBeLessThan(1e-10);
    const rigid = procrustesTransform(shape, target, false);
    expect(rigid.scale).toBe(1);
    expect(maxDiff(rigid.rotation, r)).toBeLessThan(1e-12);
  });
});

describe('generalisedProcrustes', () => {
  it('brings rigidly moved copies of one shape onto each other, in the reference frame, keeping mm size', () => {
    const shape = ellipsoid([30, 20, 15]).positions;
    const copies = [1, 2, 3, 4, 5].map((seed) => {
      const { r, shift } = randomRigid(seed);
      return moveRigidly(shape, r, shift);
    });
    const result = generalisedProcrustes(copies);
    expect(result.converged).toBe(true);
    for (const s of result.aligned) expect(maxDiff(s, result.aligned[0]!)).toBeLessThan(1e-9);
    expect(centroidSize(result.mean)).toBeCloseTo(centroidSize(shape), 9);
  });

  it('with scale, removes size differences and keeps the reference size', () => {
    const shape = ellipsoid([30, 20, 15]).positions;
    const copies = [0.8, 1, 1.3].map((k, seed) => {
      const { r, shift } = randomRigid(seed + 10);
      return moveRigidly(
        shape.map((v) => k * v),
        r,
        shift,
      );
    });
    const result = generalisedProcrustes(copies, { scale: true, reference: 1 });
    for (const s of result.aligned) expect(maxDiff(s, result.aligned[1]!)).toBeLessThan(1e-9);
    expect(centroidSize(result.mean)).toBeCloseTo(centroidSize(shape), 9);
  });

  it('refuses shapes of different vertex counts', () => {
    expect(() => generalisedProcrustes([new Float64Array(12), new Float64Array(9)])).toThrow(/same number of vertices/);
  });
});
