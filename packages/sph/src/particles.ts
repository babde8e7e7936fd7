/**
 * Structure-of-arrays particle storage. Every field is a Float64Array (or Int32Array) view on its own
 * SharedArrayBuffer, so a later worker_threads pool can share the same memory without copying.
 */

/** Spatial dimension of a simulation. */
export type Dimension = 2 | 3;

/** Part of a SharedArrayBuffer holding one typed array (e.g. a field inside a shared `WebAssembly.Memory`). */
export interface SharedSlice {
  buffer: SharedArrayBuffer;
  /** Offset of the first element, bytes. */
  byteOffset: number;
  /** Number of elements. */
  length: number;
}

/** Shared storage of one typed array: a whole SharedArrayBuffer, or a slice of one. */
export type SharedRegion = SharedArrayBuffer | SharedSlice;

/** Shared storage of several typed arrays, by name (as handed to worker threads). */
export type SharedBuffers = Readonly<Record<string, SharedRegion>>;

/** The shared storage of `a`: its whole buffer when it spans it, else the slice it views. */
export function sharedRegion(a: Float64Array | Float32Array | Int32Array): SharedRegion {
  const buffer = a.buffer as SharedArrayBuffer;
  if (a.byteOffset === 0 && a.byteLength === buffer.byteLength) return buffer;
  return { buffer, byteOffset: a.byteOffset, length: a.length };
}

/** Allocates typed arrays on shared memory (`sharedFloat64` / `sharedInt32`, or an arena, `arena.ts`). */
export interface SharedAllocator {
  f64(length: number): Float64Array;
  f32(length: number): Float32Array;
  i32(length: number): Int32Array;
}

/** Allocates a Float64Array of `length` backed by a SharedArrayBuffer (zero-filled). */
export function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Math.max(1, length) * Float64Array.BYTES_PER_ELEMENT));
}

/** Allocates a Float32Array of `length` backed by a SharedArrayBuffer (zero-filled). */
export function sharedFloat32(length: number): Float32Array {
  return new Float32Array(new SharedArrayBuffer(Math.max(1, length) * Float32Array.BYTES_PER_ELEMENT));
}

/** Allocates an Int32Array of `length` backed by a SharedArrayBuffer (zero-filled). */
export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Math.max(1, length) * Int32Array.BYTES_PER_ELEMENT));
}

/** The default allocator: one SharedArrayBuffer per array. */
export const SHARED_HEAP: SharedAllocator = { f64: sharedFloat64, f32: sharedFloat32, i32: sharedInt32 };

/**
 * A Float64Array on `buffers[name]` if given (it must exist), else a new shared one of `length` (from `alloc`,
 * default one SharedArrayBuffer of its own).
 */
export function viewFloat64(
  buffers: SharedBuffers | undefined,
  name: string,
  length: number,
  alloc: SharedAllocator = SHARED_HEAP,
): Float64Array {
  if (!buffers) return alloc.f64(length);
  const b = buffers[name];
  if (!b) throw new Error(`missing shared buffer '${name}'`);
  return b instanceof SharedArrayBuffer ? new Float64Array(b) : new Float64Array(b.buffer, b.byteOffset, b.length);
}

/** A Float32Array on `buffers[name]` if given (it must exist), else a new shared one of `length` (from `alloc`). */
export function viewFloat32(
  buffers: SharedBuffers | undefined,
  name: string,
  length: number,
  alloc: SharedAllocator = SHARED_HEAP,
): Float32Array {
  if (!buffers) return alloc.f32(length);
  const b = buffers[name];
  if (!b) throw new Error(`missing shared buffer '${name}'`);
  return b instanceof SharedArrayBuffer ? new Float32Array(b) : new Float32Array(b.buffer, b.byteOffset, b.length);
}

/** An Int32Array on `buffers[name]` if given (it must exist), else a new shared one of `length` (from `alloc`). */
export function viewInt32(
  buffers: SharedBuffers | undefined,
  name: string,
  length: number,
  alloc: SharedAllocator = SHARED_HEAP,
): Int32Array {
  if (!buffers) return alloc.i32(length);
  const b = buffers[name];
  if (!b) throw new Error(`missing shared buffer '${name}'`);
  return b instanceof SharedArrayBuffer ? new Int32Array(b) : new Int32Array(b.buffer, b.byteOffset, b.length);
}

/**
 * Particles of one body (a fluid or a wall), stored field by field. SI units throughout:
 * positions m, velocities m/s, accelerations m/s², density kg/m³ (kg/m² in 2D), pressure Pa,
 * mass kg (kg/m in 2D), volume m³ (m² in 2D).
 */
export class ParticleArrays {
  /** Spatial dimension. */
  readonly dim: Dimension;
  /** Number of slots allocated. */
  readonly capacity: number;
  /** Number of live particles (slots `0 … count-1`). */
  count = 0;
  /**
   * Id the next added particle gets. Ids are never reused, so they stay unique when open boundaries remove
   * particles (`remove`) and create new ones.
   */
  nextId = 0;
  /** Stable particle ids (for output; survive reordering and removal of other particles). */
  readonly id: Int32Array;
  /** Position, m. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  /** Velocity, m/s. */
  readonly vx: Float64Array;
  readonly vy: Float64Array;
  readonly vz: Float64Array;
  /** Acceleration from pressure (and Riemann dissipation) of the current acoustic step, m/s². */
  readonly ax: Float64Array;
  readonly ay: Float64Array;
  readonly az: Float64Array;
  /** Acceleration held fixed over an advection step (body force + viscous force), m/s². */
  readonly apx: Float64Array;
  readonly apy: Float64Array;
  readonly apz: Float64Array;
  /** Density, kg/m³. */
  readonly rho: Float64Array;
  /** Density change rate, kg/(m³·s). */
  readonly drho: Float64Array;
  /** Pressure, Pa. */
  readonly p: Float64Array;
  /** Mass, kg. */
  readonly mass: Float64Array;
  /** Volume, m³ (fixed for walls; fluids use mass / rho). */
  readonly vol: Float64Array;
  /** Unit normal (walls: pointing into the fluid). */
  readonly nx: Float64Array;
  readonly ny: Float64Array;
  readonly nz: Float64Array;

  /**
   * Allocates storage for `capacity` particles in `dim` dimensions, or, given `buffers` (from `buffers()` of
   * another instance, e.g. in a worker thread), views the same shared memory without copying.
   */
  constructor(dim: Dimension, capacity: number, buffers?: SharedBuffers) {
    this.dim = dim;
    this.capacity = capacity;
    const f64 = (name: string): Float64Array => viewFloat64(buffers, name, capacity);
    const i32 = (name: string): Int32Array => viewInt32(buffers, name, capacity);
    this.id = i32('id');
    this.x = f64('x');
    this.y = f64('y');
    this.z = f64('z');
    this.vx = f64('vx');
    this.vy = f64('vy');
    this.vz = f64('vz');
    this.ax = f64('ax');
    this.ay = f64('ay');
    this.az = f64('az');
    this.apx = f64('apx');
    this.apy = f64('apy');
    this.apz = f64('apz');
    this.rho = f64('rho');
    this.drho = f64('drho');
    this.p = f64('p');
    this.mass = f64('mass');
    this.vol = f64('vol');
    this.nx = f64('nx');
    this.ny = f64('ny');
    this.nz = f64('nz');
  }

  /**
   * Appends one particle at (x, y, z) m with volume `vol` m³ and density `rho` kg/m³ (mass = rho·vol).
   * Returns its slot index. Throws when the capacity is exhausted.
   */
  add(x: number, y: number, z: number, vol: number, rho: number): number {
    const i = this.count;
    if (i >= this.capacity) throw new RangeError(`particle capacity ${this.capacity} exhausted`);
    this.id[i] = this.nextId++;
    this.x[i] = x;
    this.y[i] = y;
    this.z[i] = this.dim === 3 ? z : 0;
    this.vol[i] = vol;
    this.rho[i] = rho;
    this.mass[i] = rho * vol;
    this.count = i + 1;
    return i;
  }

  /** The typed arrays of every per-particle field (id included), in a fixed order. */
  fields(): (Float64Array | Int32Array)[] {
    const out: (Float64Array | Int32Array)[] = [];
    for (const value of Object.values(this)) {
      if (value instanceof Float64Array || value instanceof Int32Array) out.push(value);
    }
    return out;
  }

  /** Copies every field (id included) of slot `from` into slot `to`. */
  copy(from: number, to: number): void {
    for (const f of this.fields()) f[to] = f[from]!;
  }

  /**
   * Removes the particle in slot `i` by moving the last particle into it (order is not kept; ids are). Returns the
   * slot the moved particle came from (`count` after the call), or −1 when `i` was the last slot.
   */
  remove(i: number): number {
    if (i < 0 || i >= this.count) throw new RangeError(`no particle in slot ${i}`);
    const last = this.count - 1;
    this.count = last;
    if (i === last) return -1;
    this.copy(last, i);
    return last;
  }

  /** The shared storage of every field, by field name (for handing to worker threads). */
  buffers(): Record<string, SharedRegion> {
    const out: Record<string, SharedRegion> = {};
    for (const [name, value] of Object.entries(this)) {
      if (value instanceof Float64Array || value instanceof Int32Array) out[name] = sharedRegion(value);
    }
    return out;
  }

  /**
   * Moves every field into new arrays from `alloc` (copying the values), e.g. into the one shared
   * `WebAssembly.Memory` the WebAssembly kernels read (`arena.ts`). Arrays taken from this object before the call
   * no longer belong to it afterwards.
   */
  moveTo(alloc: SharedAllocator): void {
    for (const [name, value] of Object.entries(this)) {
      if (value instanceof Float64Array || value instanceof Int32Array) {
        const moved = value instanceof Float64Array ? alloc.f64(this.capacity) : alloc.i32(this.capacity);
        moved.set(value);
        Reflect.set(this, name, moved);
      }
    }
  }
}
