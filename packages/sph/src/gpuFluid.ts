import type { WeaklyCompressibleFluid } from './fluid';
import {
  BufferUsage,
  MAP_READ,
  openGpu,
  type GpuBindGroup,
  type GpuBuffer,
  type GpuComputePass,
  type GpuComputePipeline,
  type GpuContext,
  type GpuDevice,
} from './gpuDevice';
import {
  FLUID_ARRAYS,
  MAX_GROUPS_X,
  State,
  WALL_ARRAYS,
  WORKGROUP,
  gpuLayout,
  gpuShader,
  type GpuLayout,
} from './gpuShaders';
import type { RunOptions, RunStatus } from './run';

/** Counters of a GPU run (as `FluidCounters`). */
export interface GpuCounters {
  time: number;
  advectionSteps: number;
  acousticSteps: number;
}

/** Fields copied back into the CPU simulation by `download`. */
const DOWNLOADED = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'rho', 'drho', 'p', 'vol'] as const;

/** Entry points of the shaders, by module. */
const ATOMIC_PASSES = ['clearCells', 'countCells'] as const;
const PASSES = [
  'scanCells',
  'scatterCells',
  'sortCells',
  'densitySummation',
  'beginAdvection',
  'viscousForce',
  'beginAcoustic',
  'pressureHalfStep',
  'pressureForces',
  'densityStep',
  'commitVelocity',
  'endAcoustic',
] as const;
type PassName = (typeof PASSES)[number] | (typeof ATOMIC_PASSES)[number];

/**
 * The fluid passes of a `WeaklyCompressibleFluid` on a GPU through WebGPU, in float32 (docs/decisions/sph-gpu.md):
 * cell list (counting sort, cells sorted by particle index), density summation, viscous and body forces, and the
 * acoustic steps (pressure half step, pressure forces, density relaxation), with the time step chosen on the GPU:
 * the host reads the state back once per advection step. The scheme, step control and summation order are those of
 * the CPU backends; results differ from them by float32 rounding. Supported: static walls, Newtonian viscosity, no
 * transport correction, no periodic axes (the constructor says which is missing). The CPU simulation it was made
 * from holds the particles; `download` copies the GPU's fields back into it.
 */
export class GpuFluid {
  readonly counters: GpuCounters;
  /** The device and adapter it runs on. */
  readonly gpu: GpuContext;
  private readonly sim: WeaklyCompressibleFluid;
  private readonly device: GpuDevice;
  private readonly layout: GpuLayout;
  private readonly fluidBuffer: GpuBuffer;
  private readonly wallBuffer: GpuBuffer;
  private readonly intBuffer: GpuBuffer;
  private readonly stateRead: GpuBuffer;
  private readonly pipelines = new Map<PassName, { pipeline: GpuComputePipeline; group: GpuBindGroup }>();
  /** Acoustic steps encoded per batch before the state is read back (last advection step's count + 1). */
  private batch = 8;

  private constructor(sim: WeaklyCompressibleFluid, gpu: GpuContext) {
    const o = sim.options;
    const missing: string[] = [];
    if (o.viscosity) missing.push('a viscosity model');
    if (o.transportCorrection > 0) missing.push('transport-velocity correction');
    if (o.movingWall) missing.push('moving walls');
    if (o.tensileControl) missing.push('tensile-instability control');
    if (o.domain.periodic.some(Boolean)) missing.push('periodic axes');
    if (missing.length > 0) throw new RangeError(`the GPU backend does not support ${missing.join(', ')} yet`);
    this.sim = sim;
    this.gpu = gpu;
    this.device = gpu.device;
    this.counters = { ...sim.counters };
    const n = sim.fluid.count;
    const nw = sim.wall.count;
    const cells = sim.cells.nx * sim.cells.ny * sim.cells.nz;
    this.layout = gpuLayout(n, nw, cells);
    const L = this.layout;
    const storage = BufferUsage.STORAGE | BufferUsage.COPY_DST | BufferUsage.COPY_SRC;
    const maxBinding = this.device.limits.maxStorageBufferBindingSize ?? 134217728;
    const bytes = { fluid: L.fluidFloats * 4, wall: WALL_ARRAYS.length * L.wallStride * 4, ints: L.ints * 4 };
    for (const [name, size] of Object.entries(bytes)) {
      if (size > maxBinding) {
        throw new RangeError(`the GPU's storage buffers hold ${maxBinding} bytes; the ${name} arrays need ${size}`);
      }
    }
    this.fluidBuffer = this.device.createBuffer({ size: bytes.fluid, usage: storage });
    this.wallBuffer = this.device.createBuffer({ size: bytes.wall, usage: storage });
    this.intBuffer = this.device.createBuffer({ size: bytes.ints, usage: storage });
    this.stateRead = this.device.createBuffer({ size: 64, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    this.upload();
    const k = sim.kernel;
    const c = sim.cells;
    const constants = {
      dim: o.dim,
      n,
      nw,
      nx: c.nx,
      ny: c.ny,
      nz: c.nz,
      lower: o.domain.lower,
      invCell: [1 / c.sx, 1 / c.sy, 1 / c.sz] as const,
      cut2: k.cutoff * k.cutoff,
      invH: 1 / k.h,
      alpha: k.alpha,
      dwFactor: -5 * k.alpha * (1 / k.h) * sim.gradientScale,
      w0: k.w(0),
      rho0: o.rho0,
      c0: o.c0,
      sigmaScale: o.rho0 / k.latticeNumberDensity(o.dp),
      freeSurface: o.freeSurface,
      mu: o.mu,
      eps: 0.01 * sim.h,
      gravity: o.gravity,
      acousticH: o.acousticCfl * sim.h,
      advectionH: o.advectionCfl * sim.h,
      uRef: o.uRef,
      viscousDt: Math.min(sim.viscousTimeStep(), 1e30),
    };
    const modules = [
      { names: ATOMIC_PASSES as readonly PassName[], code: gpuShader(constants, L, true) },
      { names: PASSES as readonly PassName[], code: gpuShader(constants, L, false) },
    ];
    for (const { names, code } of modules) {
      const module = this.device.createShaderModule({ code });
      for (const entryPoint of names) {
        const pipeline = this.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint } });
        const layout = pipeline.getBindGroupLayout(0);
        const entries = [this.fluidBuffer, this.wallBuffer, this.intBuffer].map((buffer, binding) => ({
          binding,
          resource: { buffer },
        }));
        // Each entry point binds only the buffers it uses ('auto' layouts drop the others).
        const used = entries.filter((e) => usesBinding(code, entryPoint, e.binding));
        this.pipelines.set(entryPoint, { pipeline, group: this.device.createBindGroup({ layout, entries: used }) });
      }
    }
  }

  /**
   * Moves `sim` (built as for the CPU, e.g. by a case of `cases.ts`, and not yet run, or run to some time) onto the
   * GPU of `gpu` (default: `openGpu()`, which throws `GpuUnavailableError` where there is none). Shader errors are
   * thrown here.
   */
  static async create(sim: WeaklyCompressibleFluid, gpu?: GpuContext): Promise<GpuFluid> {
    const context = gpu ?? (await openGpu());
    context.device.pushErrorScope('validation');
    const fluid = new GpuFluid(sim, context);
    const error = await context.device.popErrorScope();
    if (error) throw new Error(`WebGPU validation failed while setting up the GPU fluid: ${error.message}`);
    return fluid;
  }

  /** Copies the CPU simulation's fields and the wall cell list to the GPU. */
  private upload(): void {
    const { fluid, wall } = this.sim;
    // The wall grid has the fluid grid's domain and cell size (`WeaklyCompressibleFluid`).
    const grid = this.sim.cells;
    const L = this.layout;
    const f = new Float32Array(L.fluidFloats);
    const n = fluid.count;
    for (const [a, name] of FLUID_ARRAYS.entries()) {
      const source =
        name === 'x0' || name === 'y0' || name === 'z0'
          ? fluid[name[0] as 'x' | 'y' | 'z']
          : name === 'nvx' || name === 'nvy' || name === 'nvz'
            ? fluid[name.slice(1) as 'vx' | 'vy' | 'vz']
            : name === 'rhoHalf' || name === 'drhoHalf'
              ? null
              : fluid[name];
      if (source) f.set(source.subarray(0, n), a * L.stride);
    }
    this.device.queue.writeBuffer(this.fluidBuffer, 0, f);
    const w = new Float32Array(WALL_ARRAYS.length * L.wallStride);
    for (const [a, name] of WALL_ARRAYS.entries()) w.set(wall[name].subarray(0, wall.count), a * L.wallStride);
    this.device.queue.writeBuffer(this.wallBuffer, 0, w);
    // The wall's cell list, sorted by cell and by index within a cell (the CPU's visiting order).
    const ints = new Uint32Array(L.ints);
    const cellOf = new Int32Array(wall.count);
    const nxy = grid.nx * grid.ny;
    for (let i = 0; i < wall.count; i++) {
      const c = grid.cellX(wall.x[i]!) + grid.nx * grid.cellY(wall.y[i]!) + nxy * grid.cellZ(wall.z[i]!);
      cellOf[i] = c;
      ints[L.wallStart + c + 1] = ints[L.wallStart + c + 1]! + 1;
    }
    for (let c = 0; c < L.cells; c++) ints[L.wallStart + c + 1] = ints[L.wallStart + c + 1]! + ints[L.wallStart + c]!;
    const fill = new Uint32Array(L.cells);
    for (let i = 0; i < wall.count; i++) {
      const c = cellOf[i]!;
      ints[L.wallSorted + ints[L.wallStart + c]! + fill[c]!] = i;
      fill[c] = fill[c]! + 1;
    }
    this.device.queue.writeBuffer(this.intBuffer, 0, ints);
  }

  private dispatch(pass: GpuComputePass, name: PassName, items: number): void {
    const p = this.pipelines.get(name)!;
    pass.setPipeline(p.pipeline);
    pass.setBindGroup(0, p.group);
    const groups = Math.max(1, Math.ceil(items / WORKGROUP));
    if (groups <= MAX_GROUPS_X) pass.dispatchWorkgroups(groups);
    else pass.dispatchWorkgroups(MAX_GROUPS_X, Math.ceil(groups / MAX_GROUPS_X));
  }

  private single(pass: GpuComputePass, name: PassName): void {
    const p = this.pipelines.get(name)!;
    pass.setPipeline(p.pipeline);
    pass.setBindGroup(0, p.group);
    pass.dispatchWorkgroups(1);
  }

  /** Encodes `steps` acoustic steps (those past the advection step's end do nothing). */
  private encodeAcoustic(pass: GpuComputePass, steps: number): void {
    const n = this.sim.fluid.count;
    for (let s = 0; s < steps; s++) {
      this.single(pass, 'beginAcoustic');
      this.dispatch(pass, 'pressureHalfStep', n);
      this.dispatch(pass, 'pressureForces', n);
      this.dispatch(pass, 'densityStep', n);
      this.dispatch(pass, 'commitVelocity', n);
      this.single(pass, 'endAcoustic');
    }
  }

  /** Reads the time-step state back (waits for the queued work). */
  private async readState(): Promise<Float32Array> {
    const encoder = this.device.createCommandEncoder();
    encoder.copyBufferToBuffer(this.fluidBuffer, this.layout.state * 4, this.stateRead, 0, 64);
    this.device.queue.submit([encoder.finish()]);
    await this.stateRead.mapAsync(MAP_READ);
    const state = new Float32Array(this.stateRead.getMappedRange().slice(0));
    this.stateRead.unmap();
    return state;
  }

  /**
   * One advection step towards `endTime` (s): cell list, density summation, viscous and body forces, then acoustic
   * steps until the advection step is covered, with one read-back of the state per batch of acoustic steps.
   */
  async advectionStep(endTime: number): Promise<void> {
    const n = this.sim.fluid.count;
    const L = this.layout;
    this.device.queue.writeBuffer(
      this.fluidBuffer,
      (L.state + State.Remaining) * 4,
      new Float32Array([endTime - this.counters.time]),
    );
    const encoder = this.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    this.dispatch(pass, 'clearCells', L.cells);
    this.dispatch(pass, 'countCells', n);
    this.single(pass, 'scanCells');
    this.dispatch(pass, 'scatterCells', n);
    this.dispatch(pass, 'sortCells', L.cells);
    this.dispatch(pass, 'densitySummation', n);
    this.single(pass, 'beginAdvection');
    this.dispatch(pass, 'viscousForce', n);
    this.encodeAcoustic(pass, this.batch);
    pass.end();
    this.device.queue.submit([encoder.finish()]);
    let state = await this.readState();
    while (state[State.Active]! > 0.5) {
      const more = this.device.createCommandEncoder();
      const p = more.beginComputePass();
      this.encodeAcoustic(p, this.batch);
      p.end();
      this.device.queue.submit([more.finish()]);
      state = await this.readState();
    }
    const steps = state[State.Steps]!;
    this.batch = Math.min(64, steps + 1);
    this.counters.time += state[State.Elapsed]!;
    this.counters.advectionSteps++;
    this.counters.acousticSteps += steps;
  }

  /** Runs to `endTime` (s), as `WeaklyCompressibleFluid.runAsync` (progress, cancellation between advection steps). */
  async run(endTime: number, options: RunOptions<GpuCounters> = {}): Promise<RunStatus> {
    // runAsync drives a synchronous step; the GPU's step is asynchronous, so the loop is this one.
    const stop = endTime * (1 - 1e-6);
    while (this.counters.time < stop) {
      if (options.signal?.aborted) return 'cancelled';
      await this.advectionStep(endTime);
      options.onProgress?.(this.counters.time < stop ? Math.min(1, this.counters.time / endTime) : 1, this.counters);
    }
    return 'completed';
  }

  /** Copies the GPU's fields (positions, velocities, ρ, dρ/dt, p, V) and the counters back into the CPU simulation. */
  async download(): Promise<void> {
    const L = this.layout;
    const bytes = FLUID_ARRAYS.length * L.stride * 4;
    const staging = this.device.createBuffer({ size: bytes, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder();
    encoder.copyBufferToBuffer(this.fluidBuffer, 0, staging, 0, bytes);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MAP_READ);
    const f = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    const fluid = this.sim.fluid;
    const n = fluid.count;
    for (const name of DOWNLOADED) {
      const a = FLUID_ARRAYS.indexOf(name);
      const target = fluid[name];
      for (let i = 0; i < n; i++) target[i] = f[a * L.stride + i]!;
    }
    Object.assign(this.sim.counters, this.counters);
  }

  /** Frees the GPU buffers (the device stays open: `gpu.device.destroy()` closes it). */
  destroy(): void {
    for (const b of [this.fluidBuffer, this.wallBuffer, this.intBuffer, this.stateRead]) b.destroy();
  }
}

/** Whether entry point `entry` of `code` uses binding `binding` (F, W, I): by the names in its body. */
function usesBinding(code: string, entry: string, binding: number): boolean {
  const start = code.indexOf(`fn ${entry}(`);
  const next = code.indexOf('@compute', start);
  const body = code.slice(start, next < 0 ? undefined : next);
  const name = ['F', 'W', 'I'][binding]!;
  // Helpers called from the body (reduceVmax reads F; cellOf reads nothing).
  if (name === 'F' && body.includes('reduceVmax(')) return true;
  return new RegExp(`\\b${name}\\[`).test(body);
}
