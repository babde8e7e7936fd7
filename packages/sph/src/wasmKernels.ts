import { readFileSync } from 'node:fs';

/** A shared `WebAssembly.Memory` (typed here: the project's TypeScript libs carry no WebAssembly types). */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
  grow(pages: number): number;
}

/** A compiled module (opaque; structured-cloneable to workers). */
export interface WasmModule {
  readonly compiledModule: true;
}

/** The parts of the global `WebAssembly` object the engine uses. */
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => WasmMemory;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: { env: { memory: WasmMemory } }) => { exports: unknown };
}

/** The global `WebAssembly` (Node has it; its types are in the DOM/webworker libs only). */
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/**
 * Which code runs the fluid's hot passes: 'ts', the TypeScript reference (`passes.ts`), or 'wasm', the WebAssembly
 * SIMD128 kernels (`assembly/kernels.ts`, built to `build/kernels.wasm` on `npm ci`) over one shared memory
 * (`arena.ts`). See docs/decisions/sph-wasm-kernels.md.
 */
export type FluidBackend = 'ts' | 'wasm';

/** The backends, for validation and the env switch. */
export const FLUID_BACKENDS: readonly FluidBackend[] = ['ts', 'wasm'];

/**
 * The backend to use: `requested` if given, else the environment's `SPH_BACKEND` (`ts` or `wasm`), else 'ts'.
 * Throws on an unknown name.
 */
export function resolveBackend(requested?: FluidBackend | null): FluidBackend {
  const name = requested ?? process.env.SPH_BACKEND ?? 'ts';
  if (!(FLUID_BACKENDS as readonly string[]).includes(name)) {
    throw new RangeError(`unknown SPH backend '${name}' (expected ${FLUID_BACKENDS.join(' or ')})`);
  }
  return name as FluidBackend;
}

/** The kernels' exports (byte offsets into the shared memory, scalars, the particle range; see the AS source). */
export interface FluidKernels {
  densityStep2d(...args: number[]): number;
  densityStep3d(...args: number[]): number;
  pressureForces2d(...args: number[]): void;
  pressureForces3d(...args: number[]): void;
  buildNeighbours(...args: number[]): number;
  densitySummation(...args: number[]): number;
  pressureStepFused(...args: number[]): void;
  /** 1: the lists' cached pair arrays are float32 (`PairPrecision` 'f32'), 0: float64. Per instance. */
  setPairPrecision(single: number): void;
}

const WASM_FILE = new URL('../build/kernels.wasm', import.meta.url);
let compiled: WasmModule | null = null;

/** The compiled kernels module (compiled once per thread; it can also be sent to workers). */
export function kernelsModule(): WasmModule {
  if (compiled) return compiled;
  let bytes: Buffer;
  try {
    bytes = readFileSync(WASM_FILE);
  } catch {
    throw new Error(
      'the SPH WebAssembly kernels are not built (packages/sph/build/kernels.wasm): run `npm run build:wasm -w @insilico/sph`',
    );
  }
  compiled = new wasmApi.Module(bytes);
  return compiled;
}

/** An instance of the kernels over `memory` (each thread makes its own over the same shared memory). */
export function instantiateKernels(memory: WasmMemory, module: WasmModule = kernelsModule()): FluidKernels {
  const instance = new wasmApi.Instance(module, { env: { memory } });
  return instance.exports as FluidKernels;
}
