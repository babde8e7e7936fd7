import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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

/**
 * What a saved frame's readers need without reading it again (issue 16: the timeline and the colour bar's range over
 * the run scanned every frame): the min, max and mean of every timeline scalar, and where a particle's row is.
 * Computed when the frame is written (in the run's CPU thread), stored per object as `<object>/summary.json`.
 */
export interface FrameSummary {
  stats: FrameTimelineOutput['stats'];
  /** The first row's particle id (null without particles). */
  firstId: number | null;
  /** Whether row i holds particle firstId + i (no inlets or outlets reordered the rows): a row is then found by id. */
  idsInOrder: boolean;
}

/**
 * Reads `length` bytes at `offset` of a file opened with `openSync`. Synchronous on purpose: it runs in a pool thread,
 * where a timeline's thousands of 4-byte reads would otherwise each make a round trip through libuv's own threads.
 */
export function readAt(fd: number, offset: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, bytes, done, length - done, offset + done);
    if (read === 0) throw new Error('a stored frame is shorter than its layout');
    done += read;
  }
  return bytes;
}

export interface ObjectTimelineInput {
  /** Every stored frame of the object in timestep order: its file on this machine, count and stored summary. */
  frames: { path: string; count: number; summary: FrameSummary | null }[];
  columns: FrameColumn[];
  particles: number[];
}

/**
 * An object's timeline in one pass of a pool thread. A frame with a stored summary is not scanned: its statistics are
 * the summary's, and only the chosen particles' values are read from the file (the id column too when the rows are
 * not in id order); a frame stored before summaries existed is read whole (`frameTimeline`).
 */
export async function objectTimeline(input: ObjectTimelineInput): Promise<FrameTimelineOutput[]> {
  const scalars = timelineScalars(input.columns);
  const out: FrameTimelineOutput[] = [];
  for (const frame of input.frames) {
    const { summary, count } = frame;
    if (!summary) {
      const bytes = await readFile(frame.path);
      out.push(
        frameTimeline({ frame: new Uint8Array(bytes), count, columns: input.columns, particles: input.particles }),
      );
      continue;
    }
    const values: FrameTimelineOutput['values'] = input.particles.map(() => ({}));
    if (input.particles.length > 0) {
      const file = openSync(frame.path, 'r');
      try {
        const placed = new Map(frameColumnsAt(input.columns, count).map((c) => [c.name, c]));
        const rows = rowsOf(file, summary, placed.get('particle_id'), count, input.particles);
        for (const scalar of scalars) {
          const column = placed.get(scalar.column)!;
          const component = (k: number, row: number) => {
            const bytes = readAt(file, column.offset + 4 * (k * count + row), 4);
            return new DataView(bytes.buffer).getFloat32(0, true);
          };
          for (const [k, id] of input.particles.entries()) {
            const row = rows.get(id);
            let v: number | null = null;
            if (row !== undefined) {
              if (scalar.read === 'scalar') v = component(0, row);
              else if (scalar.read !== 'magnitude') v = component(scalar.read, row);
              else {
                let sum = 0;
                for (let c = 0; c < column.components; c++) sum += component(c, row) ** 2;
                v = Math.sqrt(sum);
              }
            }
            values[k]![scalar.name] = v !== null && Number.isFinite(v) ? v : null;
          }
        }
      } finally {
        closeSync(file);
      }
    }
    out.push({ stats: summary.stats, values });
  }
  return out;
}

/** The rows of the chosen particles in a frame: by id when the rows are in id order, else from its id column. */
function rowsOf(
  file: number,
  summary: FrameSummary,
  idColumn: FrameColumn | undefined,
  count: number,
  particles: readonly number[],
): Map<number, number> {
  const rows = new Map<number, number>();
  if (summary.firstId === null) return rows;
  if (summary.idsInOrder) {
    for (const id of particles)
      if (id - summary.firstId >= 0 && id - summary.firstId < count) rows.set(id, id - summary.firstId);
    return rows;
  }
  if (!idColumn) return rows;
  const ids = new Int32Array(readAt(file, idColumn.offset, 4 * count).buffer);
  const wanted = new Set(particles);
  for (let i = 0; i < count && rows.size < wanted.size; i++) if (wanted.has(ids[i]!)) rows.set(ids[i]!, i);
  return rows;
}

export const objectTimelineTask = cpuTask(import.meta.url, 'objectTimeline', objectTimeline);
/** One frame's statistics (and chosen values) for a result stored before summaries existed. */
export const frameTimelineTask = cpuTask(import.meta.url, 'frameTimeline', frameTimeline);
