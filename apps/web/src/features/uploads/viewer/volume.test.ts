// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Frame } from '@insilico/dicom';
import { buildVolume, planeGeometry, sliceValues, VolumeError } from './volume';

/** A 2 × 3 frame at height z whose value at (row r, column c) is 100·z + 10·r + c. */
const frame = (z: number): Frame => ({
  rows: 2,
  columns: 3,
  values: Float32Array.from({ length: 6 }, (_, i) => 100 * z + 10 * Math.floor(i / 3) + (i % 3)),
  window: null,
  inverted: false,
  position: [0, 0, z * 2.5],
  spacing: [0.5, 0.75],
});

describe('the slice viewer volume', () => {
  const volume = buildVolume([frame(2), frame(0), frame(1), frame(3)]);

  it('stacks frames by their z, with the spacing of each axis', () => {
    expect([volume.columns, volume.rows, volume.slices]).toEqual([3, 2, 4]);
    expect(volume.spacing).toEqual([0.75, 0.5, 2.5]);
    expect(Array.from(volume.values.subarray(0, 6))).toEqual([0, 1, 2, 10, 11, 12]);
    expect(volume.window).toEqual({ center: (0 + 312) / 2, width: 312 });
  });

  it('cuts axial, coronal and sagittal slices, superior at the top', () => {
    expect(Array.from(sliceValues(volume, 'axial', 1))).toEqual([100, 101, 102, 110, 111, 112]);
    // Coronal row 1: z from 3 (top) to 0, columns left to right.
    expect(Array.from(sliceValues(volume, 'coronal', 1))).toEqual([
      310, 311, 312, 210, 211, 212, 110, 111, 112, 10, 11, 12,
    ]);
    // Sagittal column 2: z from 3 to 0, rows left to right.
    expect(Array.from(sliceValues(volume, 'sagittal', 2))).toEqual([302, 312, 202, 212, 102, 112, 2, 12]);
    expect(planeGeometry(volume, 'coronal')).toEqual({ count: 2, width: 3, height: 4, aspect: 2.5 / 0.75 });
    expect(planeGeometry(volume, 'sagittal')).toEqual({ count: 3, width: 2, height: 4, aspect: 2.5 / 0.5 });
    // Out of range asks for the nearest slice.
    expect(Array.from(sliceValues(volume, 'axial', 99))).toEqual(Array.from(sliceValues(volume, 'axial', 3)));
  });

  it('refuses an empty series and frames of different sizes', () => {
    expect(() => buildVolume([])).toThrow(VolumeError);
    expect(() => buildVolume([frame(0), { ...frame(1), rows: 3, values: new Float32Array(9) }])).toThrow(
      'differ in size',
    );
  });
});
