import type { SharedAllocator } from './particles';
import { wasmApi, type WasmMemory } from './wasmKernels';

/** WebAssembly page size, bytes. */
const PAGE = 65536;
/** Most pages a shared arena may grow to (4 GiB, the wasm32 limit). */
export const MAX_PAGES = 65536;
/**
 * Bytes kept free at the start of the memory: the kernels' module (`wasm/kernels.ts`) places no data there, but
 * offset 0 must never be a valid array, and a zero page keeps any future static data clear of the fields.
 */
const RESERVED = PAGE;

/**
 * Typed arrays of one simulation inside one shared `WebAssembly.Memory`, so that the WebAssembly kernels
 * (`wasmKernels.ts`) of every thread can address them by byte offset. A bump allocator: arrays are never freed
 * (the neighbour lists grow by doubling, rarely; the old storage stays allocated). Arrays are 16-byte aligned,
 * zero-filled, and keep their contents when the memory grows (a shared memory's buffer is never detached).
 */
export class SharedArena implements SharedAllocator {
  readonly memory: WasmMemory;
  private top = RESERVED;

  /** A new arena of `bytes` to start with (it grows when needed). */
  constructor(bytes = 16 * PAGE) {
    const initial = Math.max(2, Math.ceil((bytes + RESERVED) / PAGE));
    this.memory = new wasmApi.Memory({ initial, maximum: MAX_PAGES, shared: true });
  }

  /** Byte offset of a new zero-filled region of `bytes` (16-byte aligned), growing the memory when needed. */
  alloc(bytes: number): number {
    const offset = this.top;
    const end = offset + Math.ceil(Math.max(16, bytes) / 16) * 16;
    const have = this.memory.buffer.byteLength;
    if (end > have) {
      const pages = Math.ceil((end - have) / PAGE);
      if (have / PAGE + pages > MAX_PAGES) throw new RangeError('SPH WebAssembly arena exhausted (4 GiB)');
      this.memory.grow(pages);
    }
    this.top = end;
    return offset;
  }

  f64(length: number): Float64Array {
    const n = Math.max(1, length);
    const offset = this.alloc(n * 8); // first: it may grow the memory (a new, longer buffer object)
    return new Float64Array(this.memory.buffer, offset, n);
  }

  f32(length: number): Float32Array {
    const n = Math.max(1, length);
    const offset = this.alloc(n * 4);
    return new Float32Array(this.memory.buffer, offset, n);
  }

  i32(length: number): Int32Array {
    const n = Math.max(1, length);
    const offset = this.alloc(n * 4);
    return new Int32Array(this.memory.buffer, offset, n);
  }

  /** Bytes allocated so far (reserved start included). */
  get used(): number {
    return this.top;
  }
}
