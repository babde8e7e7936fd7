import type { FluidCounters, WeaklyCompressibleFluid } from './fluid';

/**
 * Fluid fields that carry state from one advection step to the next. Everything else (neighbour lists,
 * accelerations, the maximum speed) is recomputed at the start of an advection step, so a run restored from a
 * checkpoint continues bit-identically to the uninterrupted run.
 */
const FIELDS = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'rho', 'drho', 'p', 'mass', 'vol'] as const;

/** JSON header of a checkpoint. */
interface CheckpointHeader {
  /** Format tag. */
  format: 'insilico-sph-checkpoint';
  /** Format version. */
  version: 1;
  /** Spatial dimension. */
  dim: number;
  /** Fluid particles. */
  count: number;
  /** Counters at the checkpoint (time in s). */
  counters: FluidCounters;
  /** Float64 fields that follow, in order (SI units), then the int32 ids. */
  fields: string[];
}

/**
 * Serialises the state of `sim` between advection steps (after `run`, `runAsync` or a cancelled run): a
 * uint32 header length, a UTF-8 JSON header, padding to 8 bytes, then each fluid field as float64 (SI units)
 * and the particle ids as int32. Walls are static and come from the case set-up.
 */
export function writeCheckpoint(sim: WeaklyCompressibleFluid): Uint8Array {
  const { fluid } = sim;
  const n = fluid.count;
  const header: CheckpointHeader = {
    format: 'insilico-sph-checkpoint',
    version: 1,
    dim: fluid.dim,
    count: n,
    counters: { ...sim.counters },
    fields: [...FIELDS],
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = Math.ceil((4 + json.length) / 8) * 8;
  const bytes = new Uint8Array(dataStart + FIELDS.length * n * 8 + n * 4);
  new DataView(bytes.buffer).setUint32(0, json.length, true);
  bytes.set(json, 4);
  const floats = new Float64Array(bytes.buffer, dataStart, FIELDS.length * n);
  FIELDS.forEach((name, f) => floats.set(fluid[name].subarray(0, n), f * n));
  new Int32Array(bytes.buffer, dataStart + FIELDS.length * n * 8, n).set(fluid.id.subarray(0, n));
  return bytes;
}

/**
 * Restores a checkpoint of `writeCheckpoint` into `sim`, which must be set up from the same case (same
 * dimension and fluid particle count). Continuing the run then gives the same results as the original run.
 */
export function readCheckpoint(sim: WeaklyCompressibleFluid, bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as CheckpointHeader;
  if (header.format !== 'insilico-sph-checkpoint' || header.version !== 1 || header.fields.join() !== FIELDS.join()) {
    throw new Error('not an SPH checkpoint (version 1)');
  }
  const { fluid } = sim;
  const n = header.count;
  if (header.dim !== fluid.dim || n !== fluid.count) {
    throw new Error(`checkpoint of ${n} particles in ${header.dim}D does not fit this simulation`);
  }
  const dataStart = Math.ceil((4 + length) / 8) * 8;
  // Copy into an aligned buffer: `bytes` may sit at any offset of its ArrayBuffer.
  const data = bytes.slice(dataStart);
  const floats = new Float64Array(data.buffer, 0, FIELDS.length * n);
  FIELDS.forEach((name, f) => fluid[name].set(floats.subarray(f * n, (f + 1) * n)));
  fluid.id.set(new Int32Array(data.buffer, FIELDS.length * n * 8, n));
  Object.assign(sim.counters, header.counters);
}
