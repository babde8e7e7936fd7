import { outputLabel, outputUnit, siToUnitFactor } from './outputLabels';
import type { Dimension, ParticleArrays } from './particles';

/**
 * Binary columnar output with a JSON manifest (issue 7, "Output"). One frame = one object at one saved
 * timestep: its columns are stored back to back, little-endian, each column contiguous (all particles
 * of component 0, then component 1, …). Values are already converted into the unit the manifest
 * names (spec §9), so readers never convert. Pure: produces bytes and JSON, writes no files.
 */

/** Element type of a column. */
export type ColumnType = 'float32' | 'int32';

/** One column of a frame, as listed in the manifest. */
export interface ColumnInfo {
  /** Output name (snake_case), e.g. `velocity`. */
  name: string;
  /** Display label per spec §9, e.g. `Velocity`. */
  label: string;
  /** Unit of the stored values per spec §9 ('' when unitless). */
  unit: string;
  /** Element type. */
  type: ColumnType;
  /** Components per particle (3 for vectors, 1 for scalars). */
  components: number;
  /** Byte offset of the column inside the frame. */
  offset: number;
  /** Byte length of the column. */
  byteLength: number;
}

/** Kind of simulated object, which decides its output fields. */
export type ObjectKind = 'fluid' | 'solid' | 'particles';

/**
 * What a frame is encoded from: the particle ids and, per output name, the SI-valued components (3 arrays for a
 * vector, 1 for a scalar; in 2D only the first two components of a vector are written).
 */
export interface OutputSource {
  dim: Dimension;
  count: number;
  id: Int32Array;
  fields: Readonly<Record<string, readonly Float64Array[]>>;
}

/** One encoded frame. */
export interface Frame {
  /** Frame bytes (columns back to back). */
  bytes: Uint8Array;
  /** Column layout. */
  columns: ColumnInfo[];
}

/** Manifest of a result folder: objects, their columns and the saved timesteps. */
export interface Manifest {
  /** Format version. */
  format: 'insilico-sph-columnar';
  version: 1;
  /** Byte order of every frame. */
  endianness: 'little';
  /**
   * Saved timesteps (zero-based index, simulated time in s). With open boundaries (inlets and outlets) particle
   * counts change in time: each timestep then lists every object's count (`particleCounts`), and that step's frame of
   * an object has the layout `frameLayout(particleCounts[name], …)` (same columns, offsets for that count).
   */
  timesteps: { index: number; time: number; particleCounts?: Record<string, number> }[];
  /** Objects with particle counts, columns and frame file names (`{step}` is the timestep index). */
  objects: { name: string; kind: ObjectKind; particleCount: number; frameFile: string; columns: ColumnInfo[] }[];
}

interface FieldSpec {
  name: string;
  /** 3 for a vector, 1 for a scalar. */
  components: 1 | 3;
  /** SI unit the engine stores, to convert from. */
  siUnit: string;
}

const FIELDS: Readonly<Record<ObjectKind, readonly FieldSpec[]>> = {
  fluid: [
    { name: 'position', components: 3, siUnit: 'm' },
    { name: 'velocity', components: 3, siUnit: 'm/s' },
    { name: 'pressure', components: 1, siUnit: 'Pa' },
    { name: 'density', components: 1, siUnit: 'kg/m²' },
  ],
  solid: [
    { name: 'position', components: 3, siUnit: 'm' },
    { name: 'displacement', components: 3, siUnit: 'm' },
    { name: 'velocity', components: 3, siUnit: 'm/s' },
    { name: 'von_mises_stress', components: 1, siUnit: 'Pa' },
    { name: 'von_mises_strain', components: 1, siUnit: 'mm/mm' },
  ],
  particles: [
    { name: 'position', components: 3, siUnit: 'm' },
    { name: 'velocity', components: 3, siUnit: 'm/s' },
    { name: 'particle_size', components: 1, siUnit: 'm' },
    // 1 once captured by a wall or device, else 0.
    { name: 'captured', components: 1, siUnit: '' },
  ],
};

/** Output source of a fluid body: position, velocity, pressure and density of `particles`. */
export function fluidOutput(particles: ParticleArrays): OutputSource {
  const { dim, count, id, x, y, z, vx, vy, vz, p, rho } = particles;
  return { dim, count, id, fields: { position: [x, y, z], velocity: [vx, vy, vz], pressure: [p], density: [rho] } };
}

/** Unit of an output field: spec §9 where it names one; positions in mm (as distances). */
function unitOf(name: string): string {
  return name === 'position' ? 'mm' : outputUnit(name);
}

/**
 * Column layout of a frame of `count` particles in `dim` dimensions: a `particle_id` int32 column
 * followed by the object's float32 fields in their spec §9 units (fluid: position mm, velocity m/s,
 * pressure Pa, density as spec §9 names it; solid: position and displacement mm, velocity m/s, von Mises
 * stress MPa and strain mm/mm; tracked particles: position mm, velocity m/s, particle size mm, captured 0/1).
 * Byte offsets and lengths are exact.
 */
export function frameLayout(count: number, dim: 2 | 3, kind: ObjectKind): ColumnInfo[] {
  const columns: ColumnInfo[] = [];
  let offset = 0;
  const add = (name: string, unit: string, type: ColumnType, components: number): void => {
    const byteLength = 4 * count * components;
    columns.push({ name, label: outputLabel(name), unit, type, components, offset, byteLength });
    offset += byteLength;
  };
  add('particle_id', '', 'int32', 1);
  for (const f of FIELDS[kind]) add(f.name, unitOf(f.name), 'float32', f.components === 3 ? dim : 1);
  return columns;
}

/** Encodes one object at one timestep (layout as `frameLayout`); throws if `source` lacks a field of `kind`. */
export function encodeFrame(source: OutputSource, kind: ObjectKind): Frame {
  const n = source.count;
  const columns = frameLayout(n, source.dim, kind);
  const last = columns[columns.length - 1]!;
  const bytes = new Uint8Array(last.offset + last.byteLength);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) view.setInt32(4 * i, source.id[i]!, true);
  FIELDS[kind].forEach((f, c) => {
    const column = columns[c + 1]!;
    const factor = (siToUnitFactor(column.unit) ?? 1) / (siToUnitFactor(f.siUnit) ?? 1);
    const arrays = source.fields[f.name];
    if (!arrays || arrays.length < column.components) throw new Error(`output of a ${kind} lacks '${f.name}'`);
    for (let k = 0; k < column.components; k++) {
      const values = arrays[k]!;
      const base = column.offset + 4 * n * k;
      for (let i = 0; i < n; i++) view.setFloat32(base + 4 * i, values[i]! * factor, true);
    }
  });
  return { bytes, columns };
}

/** Reads one column of a frame back as numbers (component-major), for tests and exporters. */
export function readColumn(frame: Uint8Array, column: ColumnInfo): Float32Array | Int32Array {
  const count = column.byteLength / 4;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const out = column.type === 'int32' ? new Int32Array(count) : new Float32Array(count);
  for (let i = 0; i < count; i++) {
    out[i] =
      column.type === 'int32'
        ? view.getInt32(column.offset + 4 * i, true)
        : view.getFloat32(column.offset + 4 * i, true);
  }
  return out;
}

/**
 * Builds the manifest for `objects` saved at `times` (s); frame files are `<name>/<step>.bin`. `counts[k]` (by object
 * name) are the particle counts of timestep k when they change in time (open boundaries); the objects' `particleCount`
 * and column offsets are then those of the current count.
 */
export function buildManifest(
  objects: readonly { name: string; kind: ObjectKind; particles: { count: number; dim: Dimension } }[],
  times: readonly number[],
  counts?: readonly Readonly<Record<string, number>>[],
): Manifest {
  return {
    format: 'insilico-sph-columnar',
    version: 1,
    endianness: 'little',
    timesteps: times.map((time, index) =>
      counts?.[index] ? { index, time, particleCounts: { ...counts[index] } } : { index, time },
    ),
    objects: objects.map(({ name, kind, particles }) => ({
      name,
      kind,
      particleCount: particles.count,
      frameFile: `${name}/{step}.bin`,
      columns: frameLayout(particles.count, particles.dim, kind),
    })),
  };
}
