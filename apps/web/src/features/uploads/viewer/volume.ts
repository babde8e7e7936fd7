import type { Frame } from '@insilico/dicom';

/**
 * A series as a volume for the slice viewer (issue 19 item 8): its frames stacked along the patient's z (Image
 * Position), slice-major, with the spacing of each axis so that coronal and sagittal slices keep their
 * proportions. One orientation is assumed (axial acquisitions: CT and most MR series).
 */
export interface Volume {
  columns: number;
  rows: number;
  slices: number;
  /** slice by slice, row by row */
  values: Float32Array;
  /** mm between columns, rows and slices */
  spacing: [number, number, number];
  /** the first frame's window, or the range of values */
  window: { center: number; width: number };
}

export type Plane = 'axial' | 'coronal' | 'sagittal';

/** Window presets for CT (centre/width in HU; Radiopaedia's usual values). */
export const ctWindowPresets = [
  { name: 'Soft tissue', center: 40, width: 400 },
  { name: 'Angio', center: 300, width: 600 },
  { name: 'Lung', center: -600, width: 1500 },
  { name: 'Bone', center: 400, width: 1800 },
  { name: 'Brain', center: 40, width: 80 },
] as const;

export class VolumeError extends Error {}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Stacks frames (in any order) into a volume: sorted by z when every frame has a position, else as given. */
export function buildVolume(frames: readonly Frame[]): Volume {
  const first = frames[0];
  if (!first) throw new VolumeError('The series has no image that can be shown.');
  if (frames.some((f) => f.rows !== first.rows || f.columns !== first.columns))
    throw new VolumeError('The images of this series differ in size: they cannot be stacked.');
  const positioned = frames.every((f) => f.position !== null);
  const ordered = positioned ? [...frames].sort((a, b) => a.position![2] - b.position![2]) : [...frames];
  const gaps = positioned
    ? ordered
        .slice(1)
        .map((f, i) => Math.abs(f.position![2] - ordered[i]!.position![2]))
        .filter((g) => g > 0)
    : [];
  const sliceSpacing = gaps.length > 0 ? median(gaps) : 1;
  const size = first.rows * first.columns;
  const values = new Float32Array(size * ordered.length);
  ordered.forEach((f, k) => values.set(f.values, k * size));
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return {
    columns: first.columns,
    rows: first.rows,
    slices: ordered.length,
    values,
    spacing: [first.spacing?.[1] ?? 1, first.spacing?.[0] ?? 1, sliceSpacing],
    window: first.window ?? { center: (min + max) / 2, width: Math.max(1, max - min) },
  };
}

/** How many slices a plane has, the size of each, and the height of a pixel relative to its width (mm/mm). */
export function planeGeometry(
  volume: Volume,
  plane: Plane,
): { count: number; width: number; height: number; aspect: number } {
  const [dx, dy, dz] = volume.spacing;
  switch (plane) {
    case 'axial':
      return { count: volume.slices, width: volume.columns, height: volume.rows, aspect: dy / dx };
    case 'coronal':
      return { count: volume.rows, width: volume.columns, height: volume.slices, aspect: dz / dx };
    case 'sagittal':
      return { count: volume.columns, width: volume.rows, height: volume.slices, aspect: dz / dy };
  }
}

/**
 * One slice's values, row by row. Axial slice k is frame k; coronal slice r and sagittal slice c are cut across the
 * frames with the highest z (superior) at the top.
 */
export function sliceValues(volume: Volume, plane: Plane, index: number): Float32Array {
  const { columns, rows, slices, values } = volume;
  const { width, height, count } = planeGeometry(volume, plane);
  const at = Math.min(count - 1, Math.max(0, Math.round(index)));
  const out = new Float32Array(width * height);
  const frame = rows * columns;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v: number;
      if (plane === 'axial') v = values[at * frame + y * columns + x]!;
      else if (plane === 'coronal') v = values[(slices - 1 - y) * frame + at * columns + x]!;
      else v = values[(slices - 1 - y) * frame + x * columns + at]!;
      out[y * width + x] = v;
    }
  }
  return out;
}
