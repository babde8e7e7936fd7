import { describe, expect, it } from 'vitest';
import { instanceLabel, mapInstance } from './instanceMapping';
import { buildShapeModel, modelInstance } from './pca';
import { generalisedProcrustes } from './procrustes';
import { SsmInputError } from './errors';
import { deform, ellipsoid, twoModeSet } from '../test/shapes';

/**
 * A named instance moved onto a rebuilt model (docs/decisions/ssm-versions.md): checked on the two-mode set, whose
 * modes and variances are known exactly (640/7 and 72/7 mm²), so the expected standard deviations and residuals are
 * worked out by hand rather than read from the code under test.
 */
const set = twoModeSet();
const modelFrom = (reference: number, maxModes?: number, shapes = set.shapes) =>
  buildShapeModel(generalisedProcrustes(shapes, { reference }).aligned, maxModes ? { maxModes } : {});

/** Mean distance per vertex between two packed shapes. */
function meanDistance(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 3) sum += Math.hypot(a[i]! - b[i]!, a[i + 1]! - b[i + 1]!, a[i + 2]! - b[i + 2]!);
  return sum / (a.length / 3);
}

describe('mapInstance', () => {
  const original = modelFrom(0);
  it('gives the same shape in a model of the same patients built in another frame (signs by geometry)', () => {
    const other = modelFrom(5);
    const mapped = mapInstance(original, other, [1, -0.5]);
    expect(mapped.deviations.map(Math.abs)).toEqual([1, 0.5]);
    expect(mapped.clampedModes).toEqual([]);
    expect(mapped.residual_mm).toBeLessThan(1e-6);
    // The redrawn shape is the original one moved rigidly: its distances to the mean are the same.
    const before = modelInstance(original, [1, -0.5]);
    const after = modelInstance(other, mapped.deviations);
    expect(meanDistance(after, other.mean)).toBeCloseTo(meanDistance(before, original.mean), 6);
  });

  it('keeps what a model with fewer modes can express; the rest is the residual', () => {
    const oneMode = modelFrom(0, 1);
    const mapped = mapInstance(original, oneMode, [1, 2]);
    expect(mapped.deviations.map(Math.abs)).toEqual([1]);
    // Mode 2 is a stretch along x of √(72/7) mm per SD (unit direction ∝ x): at 2 SD each vertex moves
    // 2·√(72/7)·|xᵢ|/‖x‖, the residual's expected value.
    const base = set.base.positions;
    const xs = Array.from({ length: base.length / 3 }, (_, i) => base[3 * i]!);
    const norm = Math.hypot(...xs);
    const expected = (2 * Math.sqrt(72 / 7) * xs.reduce((s, x) => s + Math.abs(x), 0)) / norm / xs.length;
    expect(mapped.residual_mm).toBeGreaterThan(0.2);
    expect(mapped.residual_mm).toBeCloseTo(expected, 3);
  });

  it('cuts a mode beyond ±3 SD of the new model to 3 SD and says which', () => {
    // The same modes at half the amplitudes: 2.5 SD of the original is 5 SD of these.
    const half = set.amplitudes.map(([a, b]) => deform(set.base.positions, set.modes, [a / 2, b / 2]));
    const narrow = modelFrom(0, undefined, half);
    const mapped = mapInstance(original, narrow, [2.5]);
    expect(mapped.deviations.map(Math.abs)).toEqual([3]);
    expect(mapped.clampedModes).toEqual([1]);
    // 2.5 SD of √(640/7) mm asked, 3 SD of √(160/7) = 1.5 SD of √(640/7) kept: the stretch along z of one SD of
    // the original is missing, each vertex by √(640/7)·|zᵢ|/‖z‖.
    const base = set.base.positions;
    const zs = Array.from({ length: base.length / 3 }, (_, i) => base[3 * i + 2]!);
    const expected = (Math.sqrt(640 / 7) * zs.reduce((s, z) => s + Math.abs(z), 0)) / Math.hypot(...zs) / zs.length;
    expect(mapped.residual_mm).toBeGreaterThan(0.5);
    expect(mapped.residual_mm).toBeCloseTo(expected, 3);
  });

  it('maps the mean to the mean, and refuses models of another vertex layout', () => {
    expect(instanceLabel(mapInstance(original, modelFrom(3), []).deviations)).toBe('mean');
    const coarse = ellipsoid([30, 20, 15], 6, 12).positions;
    const other = buildShapeModel([coarse, deform(coarse, [], []), coarse.map((v) => v * 1.1)]);
    expect(() => mapInstance(original, other, [1])).toThrow(SsmInputError);
  });
});

describe('instanceLabel', () => {
  it('writes standard deviations per mode as the shapes’ labels do', () => {
    expect(instanceLabel([2, 0, -1.5])).toBe('2,0,-1.5');
    expect(instanceLabel([0, 0])).toBe('mean');
    expect(instanceLabel([])).toBe('mean');
  });
});
