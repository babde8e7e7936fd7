import { frameColumnsAt, type FrameColumn } from '@insilico/contracts';
import { cpuTask } from './task';

export interface FrameTimelineInput {
  frame: Uint8Array;
  /** Particles in this frame (the timestep's count). */
  count: number;
  /** The manifest's columns of the object, in order. */
  columns: FrameColumn[];
  /** Particle ids whose values are wanted. */
  particles: number[];
}

/** A scalar of a frame: a scalar column, a vector's magnitude, or one component of the position. */
export interface TimelineScalar {
  name: string;
  /** The manifest column it is read from, and how. */
  column: string;
  read: 'scalar' | 'magnitude' | 0 | 1 | 2;
}

export interface FrameTimelineOutput {
  /** Per scalar name: min, max and mean over the frame's particles (null without particles). */
  stats: Record<string, { min: number | null; max: number | null; mean: number | null }>;
  /** Per particle asked for (same order), per scalar name its value, or null when the particle is not in the frame. */
  values: Record<string, number | null>[];
}

/** The scalars a timeline follows for these columns (the id column is the particle, not an output). */
export function timelineScalars(columns: readonly Pick<FrameColumn, 'name' | 'components'>[]): TimelineScalar[] {
  const scalars: TimelineScalar[] = [];
  for (const column of columns) {
    if (column.name === 'particle_id') continue;
    if (column.components === 1) scalars.push({ name: column.name, column: column.name, read: 'scalar' });
    else if (column.name === 'position')
      (['x', 'y', 'z'] as const)
        .slice(0, column.components)
        .forEach((axis, k) => scalars.push({ name: `position_${axis}`, column: column.name, read: k as 0 | 1 | 2 }));
    else scalars.push({ name: column.name, column: column.name, read: 'magnitude' });
  }
  return scalars;
}

/**
 * One frame's contribution to a timeline: the statistics of every scalar and the values of the chosen particles
 * (found by their `particle_id`: with inlets and outlets a particle's row changes between frames). In a pool thread:
 * a frame of 100k particles is a few MB of floats.
 */
export function frameTimeline(input: FrameTimelineInput): FrameTimelineOutput {
  const { frame, count } = input;
  const columns = frameColumnsAt(input.columns, count);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const byName = new Map(columns.map((column) => [column.name, column]));
  const idColumn = byName.get('particle_id');
  const rows = new Map<number, number>();
  if (idColumn) {
    const wanted = new Set(input.particles);
    for (let i = 0; i < count && rows.size < wanted.size; i++) {
      const id = view.getInt32(idColumn.offset + 4 * i, true);
      if (wanted.has(id)) rows.set(id, i);
    }
  }
  const stats: FrameTimelineOutput['stats'] = {};
  const values: FrameTimelineOutput['values'] = input.particles.map(() => ({}));
  for (const scalar of timelineScalars(input.columns)) {
    const column = byName.get(scalar.column)!;
    const at = (i: number): number => {
      if (scalar.read === 'scalar') return view.getFloat32(column.offset + 4 * i, true);
      if (scalar.read !== 'magnitude') return view.getFloat32(column.offset + 4 * (scalar.read * count + i), true);
      let sum = 0;
      for (let k = 0; k < column.components; k++) {
        const v = view.getFloat32(column.offset + 4 * (k * count + i), true);
        sum += v * v;
      }
      return Math.sqrt(sum);
    };
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const v = at(i);
      if (!Number.isFinite(v)) continue;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      n++;
    }
    stats[scalar.name] = n > 0 ? { min, max, mean: sum / n } : { min: null, max: null, mean: null };
    input.particles.forEach((id, k) => {
      const row = rows.get(id);
      const v = row === undefined ? null : at(row);
      values[k]![scalar.name] = v !== null && Number.isFinite(v) ? v : null;
    });
  }
  return { stats, values };
}

export const frameTimelineTask = cpuTask(import.meta.url, 'frameTimeline', frameTimeline);
