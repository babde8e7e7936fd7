import { mulberry32 } from '@insilico/stats';
import { describe, expect, it } from 'vitest';
import { generalisedProcrustes } from './procrustes';
import { buildShapeModel, modelInstance } from './pca';
import { compactness, generalisation, specificity } from './quality';
import { buildSurfaceIndex, meanDistanceToSurface, surfaceDistance } from './surfaceDistance';
import { axisStretch, deform, ellipsoid, twoModeSet } from '../test/shapes';

describe('compactness', () => {
  it('is the cumulative share of variance, ending at 1', () => {
    const set = twoModeSet();
    const model = buildShapeModel(generalisedProcrustes(set.shapes).aligned);
    const c = compactness(model);
    expect(c[0]).toBeCloseTo(640 / (640 + 72), 10);
    expect(c[1]).toBeCloseTo(1, 12);
  });
});

describe('generalisation (leave one out)', () => {
  const set = twoModeSet();
  const aligned = generalisedProcrustes(set.shapes).aligned;

  it('reconstructs every left-out shape exactly with both modes, and not with one', () => {
    const g = generalisation(aligned, set.base.indices, { maxModes: 3 });
    expect(g.curve.length).toBe(3);
    expect(g.curve[0]).toBeGreaterThan(0.05); // mode 2 (±3 mm along x) is missing
    expect(g.curve[1]).toBeLessThan(1e-9);
    expect(g.curve[2]).toBeLessThan(1e-9);
    for (const e of g.perShape) expect(e).toBeLessThan(1e-9);
  });

  it('with one mode, equals an independent leave-one-out: a model rebuilt without the shape, projection, distance', () => {
    const g = generalisation(aligned, set.base.indices, { maxModes: 1 });
    let sum = 0;
    aligned.forEach((shape, out) => {
      const others = buildShapeModel(aligned.filter((_, j) => j !== out));
      let b = 0;
      for (let i = 0; i < shape.length; i++) b += others.modes[i]! * (shape[i]! - others.mean[i]!);
      const rebuilt = modelInstance(others, [b / Math.sqrt(others.variances[0]!)]);
      sum += surfaceDistance(buildSurfaceIndex(rebuilt, set.base.indices), buildSurfaceIndex(shape, set.base.indices));
    });
    expect(g.curve[0]).toBeCloseTo(sum / aligned.length, 9);
  });

  it('flags the shape the others cannot reproduce', () => {
    const base = ellipsoid([30, 20, 15]);
    const modes = [axisStretch(base.positions, 2)];
    const shapes = [-6, -3, -1, 0, 1, 3, 6].map((a) => deform(base.positions, modes, [a]));
    // One shape with a bulge nobody else has.
    const odd = Float64Array.from(shapes[3]!);
    for (let i = 0; i < odd.length; i += 3) if (odd[i]! > 20) odd[i] = odd[i]! + 4;
    shapes[3] = odd;
    // With every mode the others' span holds each ordinary shape exactly, never the bulge.
    const g = generalisation(shapes, base.indices);
    expect(g.perShape[3]).toBeGreaterThan(0.05);
    g.perShape.forEach((e, j) => {
      if (j !== 3) expect(e).toBeLessThan(1e-9);
    });
  });
});

describe('specificity', () => {
  it('equals a brute-force replay: the same draws, the nearest training shape by vertex distance, distance to its surface', () => {
    // Random amplitudes along three stretches (a grid would make ties for the nearest shape).
    const base = ellipsoid([30, 20, 15]);
    const modes = [axisStretch(base.positions, 2), axisStretch(base.positions, 0), axisStretch(base.positions, 1)];
    const draw = mulberry32(11);
    const aligned = Array.from({ length: 9 }, () =>
      deform(base.positions, modes, [(draw() - 0.5) * 20, (draw() - 0.5) * 8, (draw() - 0.5) * 3]),
    );
    const set = { base };
    const model = buildShapeModel(aligned);
    const samples = 40;
    const s = specificity(model, aligned, set.base.indices, { samples, seed: 5, maxModes: 2 });
    // Replay: Box–Muller on mulberry32(5), `maxModes` normals per sample, the first M used.
    const random = mulberry32(5);
    const z = Array.from({ length: samples * 2 }, () => {
      const u = 1 - random();
      const v = random();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    });
    const training = aligned.map((x) => buildSurfaceIndex(x, set.base.indices));
    for (const M of [1, 2]) {
      let sum = 0;
      for (let k = 0; k < samples; k++) {
        const shape = modelInstance(model, z.slice(k * 2, k * 2 + M));
        let nearest = 0;
        let best = Infinity;
        aligned.forEach((x, j) => {
          let d2 = 0;
          for (let i = 0; i < x.length; i++) d2 += (x[i]! - shape[i]!) ** 2;
          if (d2 < best) [best, nearest] = [d2, j];
        });
        sum += meanDistanceToSurface(shape, training[nearest]!);
      }
      expect(s[M - 1]).toBeCloseTo(sum / samples, 10);
    }
  });

  it('refuses a sample count below one', () => {
    const set = twoModeSet();
    const model = buildShapeModel(set.shapes);
    expect(() => specificity(model, set.shapes, set.base.indices, { samples: 0 })).toThrow(/at least one sample/);
  });
});
