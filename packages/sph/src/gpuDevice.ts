// The WebGPU device of the optional GPU backend (`gpuFluid.ts`), through the `webgpu` npm package (Dawn, prebuilt
// inside the package; an optional dependency: nothing else in the project needs it or a GPU).
//
// Environment:
// - SPH_GPU_BACKEND: a Dawn backend name passed as `backend=<name>` (e.g. `vulkan`, `opengles`); unset: Dawn's
//   default (Vulkan on Linux with a GPU).
// - SPH_GPU_COMPAT=1: request a compatibility-level adapter (needed on OpenGL ES, e.g. Mesa's software renderer in
//   CI with EGL_PLATFORM=surfaceless). `SPH_GPU_BACKEND=opengles` implies it.

/** The subset of the WebGPU API the backend uses (the project's TypeScript libs carry no WebGPU types). */
export interface GpuBuffer {
  readonly size: number;
  mapAsync(mode: number): Promise<void>;
  getMappedRange(): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

export interface GpuBindGroupLayout {
  readonly __brand?: 'layout';
}

export interface GpuBindGroup {
  readonly __brand?: 'bindGroup';
}

export interface GpuComputePipeline {
  getBindGroupLayout(index: number): GpuBindGroupLayout;
}

export interface GpuShaderModule {
  getCompilationInfo(): Promise<{ messages: readonly { type: string; message: string; lineNum: number }[] }>;
}

export interface GpuComputePass {
  setPipeline(pipeline: GpuComputePipeline): void;
  setBindGroup(index: number, group: GpuBindGroup): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

export interface GpuCommandEncoder {
  beginComputePass(): GpuComputePass;
  copyBufferToBuffer(
    source: GpuBuffer,
    sourceOffset: number,
    target: GpuBuffer,
    targetOffset: number,
    size: number,
  ): void;
  finish(): unknown;
}

export interface GpuQueue {
  writeBuffer(buffer: GpuBuffer, offset: number, data: ArrayBufferView): void;
  submit(commands: unknown[]): void;
  onSubmittedWorkDone(): Promise<void>;
}

export interface GpuDevice {
  readonly queue: GpuQueue;
  readonly limits: Record<string, number>;
  createBuffer(descriptor: { size: number; usage: number; mappedAtCreation?: boolean }): GpuBuffer;
  createShaderModule(descriptor: { code: string }): GpuShaderModule;
  createComputePipeline(descriptor: {
    layout: 'auto';
    compute: { module: GpuShaderModule; entryPoint: string };
  }): GpuComputePipeline;
  createBindGroup(descriptor: {
    layout: GpuBindGroupLayout;
    entries: { binding: number; resource: { buffer: GpuBuffer } }[];
  }): GpuBindGroup;
  createCommandEncoder(): GpuCommandEncoder;
  pushErrorScope(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  popErrorScope(): Promise<{ message: string } | null>;
  destroy(): void;
}

interface GpuAdapter {
  readonly info: { vendor: string; architecture: string; device: string; description: string };
  readonly limits: Record<string, number>;
  requestDevice(descriptor?: { requiredLimits?: Record<string, number> }): Promise<GpuDevice>;
}

interface Gpu {
  requestAdapter(options?: { featureLevel?: string; powerPreference?: string }): Promise<GpuAdapter | null>;
}

interface WebGpuModule {
  create(options: string[]): Gpu;
  globals: Record<string, unknown>;
}

/** Buffer usage flags (GPUBufferUsage). */
export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
} as const;

/** GPUMapMode.READ. */
export const MAP_READ = 0x0001;

/** An open device and what it runs on. */
export interface GpuContext {
  device: GpuDevice;
  /** Adapter description (vendor, architecture, device, description), for reports. */
  adapter: { vendor: string; architecture: string; device: string; description: string };
  /** The Dawn backend asked for ('default' when none). */
  backend: string;
  /**
   * The WebGPU instance the device came from. It must stay referenced while the device is used: Dawn's node binding
   * polls the instance's events on a timer, and once the garbage collector had freed an unreferenced instance that
   * poll crashed the process (a corrupt mutex in `InstanceBase::ProcessEvents`).
   */
  instance: unknown;
}

/** No WebGPU adapter could be created here (no package, no driver, no GPU); the message says why. */
export class GpuUnavailableError extends Error {
  override readonly name = 'GpuUnavailableError';
}

/**
 * Opens a WebGPU device (see the environment switches at the top of this file). Throws `GpuUnavailableError`
 * when the `webgpu` package cannot be loaded or no adapter is offered. The device asks for the adapter's largest
 * storage-buffer sizes (a 1M-particle run needs more than the 128 MiB default).
 */
export async function openGpu(): Promise<GpuContext> {
  let webgpu: WebGpuModule;
  try {
    webgpu = (await import('webgpu')) as unknown as WebGpuModule;
  } catch (error) {
    throw new GpuUnavailableError(
      `the optional 'webgpu' package could not be loaded (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  Object.assign(globalThis, webgpu.globals);
  const backend = process.env.SPH_GPU_BACKEND ?? '';
  const compat = process.env.SPH_GPU_COMPAT === '1' || backend === 'opengles';
  const gpu = webgpu.create(backend ? [`backend=${backend}`] : []);
  const adapter = await gpu.requestAdapter(
    compat ? { featureLevel: 'compatibility' } : { powerPreference: 'high-performance' },
  );
  if (!adapter) {
    throw new GpuUnavailableError(
      `no WebGPU adapter (backend ${backend || 'default'}${compat ? ', compatibility level' : ''}); on a machine without a GPU install Mesa (libegl-mesa0 libgles2 libgl1-mesa-dri) and set SPH_GPU_BACKEND=opengles EGL_PLATFORM=surfaceless`,
    );
  }
  const requiredLimits: Record<string, number> = {};
  for (const name of ['maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupsPerDimension']) {
    const value = adapter.limits[name];
    if (typeof value === 'number') requiredLimits[name] = value;
  }
  const device = await adapter.requestDevice({ requiredLimits });
  const { vendor, architecture, device: name, description } = adapter.info;
  return {
    device,
    adapter: { vendor, architecture, device: name, description },
    backend: backend || 'default',
    instance: gpu,
  };
}
