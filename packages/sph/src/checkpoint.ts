import type { FluidCounters, WeaklyCompressibleFluid } from './fluid';

/**
 * Checkpoints: a uint32 header length, a UTF-8 JSON header, padding to 8 bytes, then named arrays back to back
 * (float64 or int32, in the header's order). `packArrays` / `unpackArrays` are the container; `writeCheckpoint` /
 * `readCheckpoint` store a fluid simulation in it (the case runner stores fluids, solids and tracked particles).
 */

/** One stored array. */
export interface PackedArray {
  name: string;
  data: Float64Array | Int32Array;
}

interface PackedHeader<M> {
  format: 'insilico-sph-checkpoint';
  version: 2;
  meta: M;
  arrays: { name: string; type: 'float64' | 'int32'; length: number }[];
}

/** Packs `arrays` with the JSON-serialisable `meta` into one buffer. */
export function packArrays<M>(meta: M, arrays: readonly PackedArray[]): Uint8Array {
  // Float64 arrays first, so each stays 8-byte aligned.
  const ordered = [...arrays].sort(
    (a, b) => Number(a.data instanceof Int32Array) - Number(b.data instanceof Int32Array),
  );
  const header: PackedHeader<M> = {
    format: 'insilico-sph-checkpoint',
    version: 2,
    meta,
    arrays: ordered.map((a) => ({
      name: a.name,
      type: a.data instanceof Int32Array ? 'int32' : 'float64',
      length: a.data.length,
    })),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = Math.ceil((4 + json.length) / 8) * 8;
  const size = ordered.reduce((s, a) => s + a.data.byteLength, 0);
  const bytes = new Uint8Array(dataStart + size);
  new DataView(bytes.buffer).setUint32(0, json.length, true);
  bytes.set(json, 4);
  let offset = dataStart;
  for (const a of ordered) {
    bytes.set(new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength), offset);
    offset += a.data.byteLength;
  }
  return bytes;
}

/** Unpacks a buffer of `packArrays`: its meta and arrays by name. Throws on anything else. */
export function unpackArrays<M>(bytes: Uint8Array): { meta: M; arrays: Map<string, Float64Array | Int32Array> } {
  const fail = (): never => {
    throw new Error('not an SPH checkpoint (version 2)');
  };
  if (bytes.byteLength < 4) fail();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  if (4 + length > bytes.byteLength) fail();
  let header: PackedHeader<M>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as PackedHeader<M>;
  } catch {
    return fail();
  }
  if (header.format !== 'insilico-sph-checkpoint' || header.version !== 2) fail();
  // Copy into an aligned buffer of its own: `bytes` may sit at any offset of its ArrayBuffer. (Not `bytes.slice`: on a
  // Node Buffer, as `readFile` gives, slice is a view, and the arrays were read from the start of the file instead.)
  const start = Math.ceil((4 + length) / 8) * 8;
  if (start > bytes.byteLength) fail();
  const data = new Uint8Array(bytes.byteLength - start);
  data.set(bytes.subarray(start));
  const arrays = new Map<string, Float64Array | Int32Array>();
  let offset = 0;
  for (const a of header.arrays) {
    const size = a.length * (a.type === 'int32' ? 4 : 8);
    if (offset + size > data.byteLength) fail();
    arrays.set(
      a.name,
      a.type === 'int32'
        ? new Int32Array(data.buffer, offset, a.length)
        : new Float64Array(data.buffer, offset, a.length),
    );
    offset += size;
  }
  return { meta: header.meta, arrays };
}

/**
 * Fluid fields that carry state from one advection step to the next. Everything else (neighbour lists,
 * accelerations, the maximum speed) is recomputed at the start of an advection step, so a run restored from a
 * checkpoint continues bit-identically to the uninterrupted run.
 */
export const FLUID_STATE = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'rho', 'drho', 'p', 'mass', 'vol'] as const;

interface FluidMeta {
  dim: number;
  count: number;
  counters: FluidCounters;
}

/**
 * Serialises the state of `sim` between advection steps (after `run`, `runAsync` or a cancelled run): each fluid
 * field as float64 (SI units) and the particle ids as int32. Walls are static and come from the case set-up.
 */
export function writeCheckpoint(sim: WeaklyCompressibleFluid): Uint8Array {
  const { fluid } = sim;
  const n = fluid.count;
  const meta: FluidMeta = { dim: fluid.dim, count: n, counters: { ...sim.counters } };
  return packArrays(meta, [
    ...FLUID_STATE.map((name) => ({ name, data: fluid[name].subarray(0, n) })),
    { name: 'id', data: fluid.id.subarray(0, n) },
  ]);
}

/**
 * Restores a checkpoint of `writeCheckpoint` into `sim`, which must be set up from the same case (same
 * dimension and fluid particle count). Continuing the run then gives the same results as the original run.
 */
export function readCheckpoint(sim: WeaklyCompressibleFluid, bytes: Uint8Array): void {
  const { meta, arrays } = unpackArrays<FluidMeta>(bytes);
  const { fluid } = sim;
  if (meta.dim !== fluid.dim || meta.count !== fluid.count) {
    throw new Error(`checkpoint of ${meta.count} particles in ${meta.dim}D does not fit this simulation`);
  }
  for (const name of [...FLUID_STATE, 'id'] as const) {
    const a = arrays.get(name);
    if (!a || a.length !== meta.count) throw new Error(`checkpoint lacks '${name}'`);
    fluid[name].set(a);
  }
  Object.assign(sim.counters, meta.counters);
}
