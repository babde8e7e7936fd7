import { CellLinkedList, type Domain } from './cellList';
import { WendlandC2, smoothingLength } from './kernel';
import { NeighbourList, buildNeighbours, type PairPrecision } from './neighbours';
import { SharedArena } from './arena';
import { SHARED_HEAP, type Dimension, type ParticleArrays, type SharedAllocator } from './particles';
import { FluidPasses, OVERFLOW, Pass } from './passes';
import { WorkerPool, defaultMinWorkPerThread } from './pool';
import { runAsync, runSync, type RunOptions as GenericRunOptions, type RunStatus } from './run';
import { checkViscosityModel, maxViscosity, type ViscosityModel } from './viscosity';
import { instantiateKernels, resolveBackend, type FluidBackend } from './wasmKernels';

export type { RunStatus } from './run';

/** A prescribed motion of wall particles (a vessel's wall moving with the heart cycle, `movingWall.ts`). */
export interface PrescribedWallMotion {
  /** Sets positions, velocities, accelerations and normals of the moved particles of `wall` to time `time`, s. */
  moveTo(wall: ParticleArrays, time: number): void;
}

/** Settings of a weakly compressible fluid simulation (SI units). */
export interface FluidOptions {
  /** Spatial dimension. */
  dim: Dimension;
  /** Initial particle spacing, m. */
  dp: number;
  /** Reference density ρ₀, kg/m³. */
  rho0: number;
  /** Artificial sound speed c₀, m/s (typically 10 × the reference speed). */
  c0: number;
  /** Dynamic viscosity μ, Pa·s (0 for inviscid; unused with a `viscosity` model). */
  mu: number;
  /**
   * Shear-thinning viscosity (e.g. `BLOOD_CARREAU`), evaluated per particle once per advection step; absent or null:
   * Newtonian with `mu`. The viscous time-step limit then uses the model's largest viscosity.
   */
  viscosity?: ViscosityModel | null;
  /** Body-force acceleration (gravity or driving force), m/s². */
  gravity: readonly [number, number, number];
  /** Reference (maximum expected) flow speed for the advection time step, m/s. */
  uRef: number;
  /** Density summation with the free-surface variant (true) or plain (internal flows, false). */
  freeSurface: boolean;
  /** Domain enclosing fluid and walls (periodic axes wrap fluid particles). */
  domain: Domain;
  /**
   * Transport-velocity correction (particle shifting) once per advection step, for internal flows
   * without free surface; coefficient × h² (default 0 = off; SPHinXsys uses 0.2).
   */
  transportCorrection?: number;
  /**
   * Tensile-instability control (Sun et al. 2018): a particle under tension takes p_j − p_i instead of p_i + p_j in
   * its pair pressure forces (default: on for internal flows, off with a free surface;
   * docs/decisions/sph-diastole-tensile-control.md).
   */
  tensileControl?: boolean;
  /** Acoustic CFL number (default 0.6). */
  acousticCfl?: number;
  /** Advection CFL number (default 0.25). */
  advectionCfl?: number;
  /**
   * True when wall particles move (a solid coupled as a moving wall, `fsi.ts`): their cell list is then rebuilt
   * with the neighbour lists at every advection step (default false: built once).
   */
  movingWall?: boolean;
  /**
   * A prescribed wall motion (default none: static walls), applied at the start of every advection step at the
   * simulated time; implies `movingWall`. The fluid sees the wall's velocity and acceleration in its wall boundary
   * condition (docs/decisions/sph-moving-walls.md).
   */
  wallMotion?: PrescribedWallMotion | null;
  /**
   * Code of the hot passes (neighbour build, density summation, pressure forces, density relaxation): 'ts', the
   * TypeScript reference, or 'wasm', the WebAssembly SIMD128 kernels (same scheme; the last bits differ, see docs/decisions/sph-wasm-kernels.md). Default:
   * the environment's `SPH_BACKEND`, else 'ts'. With 'wasm' the fluid's and the wall's fields move into one shared
   * WebAssembly memory when the simulation is built (`ParticleArrays.moveTo`): take arrays from `fluid` / `wall`
   * after that, not before.
   */
  backend?: FluidBackend;
  /**
   * Storage precision of the neighbour lists' cached pair data (W, dW/dr, r, e): 'f64' (default) or 'f32', for
   * large 3D runs, where these arrays are most of the memory (about 100 pairs per particle): it halves them (and
   * lets a run of twice the particles fit into the WebAssembly backend's 4 GiB memory). The fields and the
   * arithmetic stay float64; the tolerances it still meets are in docs/validation.md ("float32 pair data").
   * Default: the environment's `SPH_PAIR_PRECISION`, else 'f64'.
   */
  pairPrecision?: PairPrecision;
}

/** The pair precision to use: `requested` if given, else `SPH_PAIR_PRECISION` (`f64` or `f32`), else 'f64'. */
export function resolvePairPrecision(requested?: PairPrecision | null): PairPrecision {
  const name = requested ?? process.env.SPH_PAIR_PRECISION ?? 'f64';
  if (name !== 'f64' && name !== 'f32')
    throw new RangeError(`unknown SPH pair precision '${name}' (expected f64 or f32)`);
  return name;
}

/** Counters of a simulation so far. */
export interface FluidCounters {
  /** Simulated time, s. */
  time: number;
  /** Advection steps (neighbour rebuilds) taken. */
  advectionSteps: number;
  /** Inner acoustic steps taken. */
  acousticSteps: number;
}

/** Calls into an advection step (the fluid–structure coupling). */
export interface AdvectionHooks {
  /** After the neighbour rebuild, density summation and viscous forces, before the acoustic steps. */
  forcesReady?: () => void;
  /** After each acoustic step of `dt` s. */
  acoustic?: (dt: number) => void;
}

/** Options of `WeaklyCompressibleFluid.runAsync`. */
export type RunOptions = GenericRunOptions<FluidCounters>;

/**
 * Weakly compressible SPH after SPHinXsys (Zhang, Rezavand & Hu, JCP 2020/2021): Riemann-based
 * pressure relaxation and density relaxation (acoustic Riemann solver, dissipation limited to
 * compression), density summation once per advection step, viscous and body forces held over the
 * advection step, static walls as boundary particles with normals, and dual-criteria time stepping.
 * All fields are SI: m, s, kg/m³, Pa.
 */
export class WeaklyCompressibleFluid {
  /** Fluid particles. */
  readonly fluid: ParticleArrays;
  /**
   * Wall particles (may be empty). Walls need `vol` and normals `n` pointing into the fluid; a moving wall also
   * its velocity `v` and acceleration `a` (both zero for static walls).
   */
  readonly wall: ParticleArrays;
  /** Kernel. */
  readonly kernel: WendlandC2;
  /** Smoothing length, m. */
  readonly h: number;
  /** Fluid–fluid neighbour lists. */
  readonly inner: NeighbourList;
  /** Fluid–wall neighbour lists. */
  readonly contact: NeighbourList;
  /** Counters. */
  readonly counters: FluidCounters = { time: 0, advectionSteps: 0, acousticSteps: 0 };
  private readonly o: Required<FluidOptions>;
  /** Cell list of the fluid particles (rebuilt at every advection step). */
  readonly cells: CellLinkedList;
  private readonly wallCells: CellLinkedList;
  /** The particle passes (shared with the worker threads). */
  private readonly passes: FluidPasses;
  private pool: WorkerPool | null = null;
  /** 1 / lattice gradient moment: makes gradients of linear fields exact on a regular lattice. */
  readonly gradientScale: number;
  private vmax2 = 0;
  /**
   * Pressure relaxation in one pass (a neighbour's half-step p and V recomputed per pair, about 1.4× the pair work of
   * that pass) instead of two (half-step, then forces). Bit-identical either way. Off by default: on threads the two
   * passes run under one publication anyway (`WorkerPool.run` chains the acoustic step's passes), so the fused form
   * saves only a wait inside the pass, and it cost 12–20 % more CPU per step (docs/decisions/sph-threads.md).
   * `SPH_BENCH_FUSE=1` in the bench.
   */
  fusedPressure = false;
  /**
   * How the pool picks the threads of the fluid's passes. null (the default): every thread or the calling thread
   * alone, whichever it timed faster on this run's first advection steps (and again now and then; `ThreadTrial`,
   * pool.ts), so a small case does not pay fork–joins it cannot win back. A number: the work rule, one thread more
   * per that many work units (a particle plus its fluid and wall pairs) per pass (`threadsForWork`; 0: always every
   * thread). Default `SPH_MIN_WORK_PER_THREAD` if set, else null. Takes effect at the next advection step.
   */
  get minWorkPerThread(): number | null {
    return this.workThreshold;
  }

  set minWorkPerThread(units: number | null) {
    this.workThreshold = units;
    if (this.pool) this.pool.minWorkPerThread = units;
  }

  private workThreshold = defaultMinWorkPerThread();

  /** Sets up a simulation of `fluid` bounded by `wall` (pass an empty body for none). */
  constructor(fluid: ParticleArrays, wall: ParticleArrays, options: FluidOptions) {
    this.o = {
      acousticCfl: 0.6,
      advectionCfl: 0.25,
      transportCorrection: 0,
      movingWall: false,
      viscosity: null,
      wallMotion: null,
      ...options,
      tensileControl: options.tensileControl ?? !options.freeSurface,
      backend: resolveBackend(options.backend),
      pairPrecision: resolvePairPrecision(options.pairPrecision),
    };
    if (this.o.viscosity) checkViscosityModel(this.o.viscosity);
    if (this.o.wallMotion) this.o.movingWall = true;
    this.fluid = fluid;
    this.wall = wall;
    const perParticle = options.dim === 2 ? 32 : 96;
    // The WebAssembly kernels address every array they read in one shared memory: the fields move there.
    let alloc: SharedAllocator = SHARED_HEAP;
    let arena: SharedArena | null = null;
    if (this.o.backend === 'wasm') {
      const fields = 24 * 8 * (fluid.capacity + wall.capacity);
      const pairs = (this.o.pairPrecision === 'f32' ? 28 : 56) * fluid.capacity * perParticle * 1.5;
      arena = new SharedArena(fields + pairs + 64 * fluid.capacity);
      fluid.moveTo(arena);
      wall.moveTo(arena);
      alloc = arena;
    }
    this.h = smoothingLength(options.dp);
    this.kernel = new WendlandC2(this.h, options.dim);
    this.gradientScale = 1 / this.kernel.latticeGradientMoment(options.dp);
    this.cells = new CellLinkedList(options.domain, this.kernel.cutoff, fluid.capacity, options.dim, undefined, alloc);
    this.wallCells = new CellLinkedList(
      options.domain,
      this.kernel.cutoff,
      Math.max(1, wall.capacity),
      options.dim,
      undefined,
      alloc,
    );
    this.wallCells.rebuild(wall);
    const precision = this.o.pairPrecision;
    this.inner = new NeighbourList(fluid.capacity, fluid.capacity * perParticle, undefined, alloc, precision);
    this.contact = new NeighbourList(
      fluid.capacity,
      Math.max(1, fluid.capacity * (perParticle >> 1)),
      undefined,
      alloc,
      precision,
    );
    const { rho, p, mass, vol } = fluid;
    const c2 = options.c0 * options.c0;
    for (let i = 0; i < fluid.count; i++) {
      p[i] = c2 * (rho[i]! - options.rho0);
      vol[i] = mass[i]! / rho[i]!;
    }
    const o = this.o;
    this.passes = new FluidPasses(fluid, wall, this.inner, this.contact, this.cells, this.wallCells, {
      dim: o.dim,
      dp: o.dp,
      rho0: o.rho0,
      c0: o.c0,
      mu: o.mu,
      gravity: o.gravity,
      freeSurface: o.freeSurface,
      transportCorrection: o.transportCorrection,
      tensileControl: o.tensileControl,
      viscosity: o.viscosity,
      domain: o.domain,
      scratch: FluidPasses.scratchBuffers(fluid.capacity, alloc),
    });
    if (arena) this.passes.useWasm(instantiateKernels(arena.memory), arena.memory);
  }

  /** The settings the simulation was built with (defaults filled in). */
  get options(): Readonly<Required<FluidOptions>> {
    return this.o;
  }

  /** Code of the hot passes ('ts' or 'wasm'; see `FluidOptions.backend`). */
  get backend(): FluidBackend {
    return this.o.backend;
  }

  /** Threads the passes may run on (1 without a pool). */
  get threads(): number {
    return this.pool?.threads ?? 1;
  }

  /**
   * Work units of a pass over the current neighbour lists, as the pool counts them for `minWorkPerThread`: one per
   * fluid particle plus its fluid and wall pairs.
   */
  get workPerPass(): number {
    const { start, end } = this.inner;
    const { start: cs, end: ce } = this.contact;
    let work = this.fluid.count;
    for (let i = 0; i < this.fluid.count; i++) work += end[i]! - start[i]! + (ce[i]! - cs[i]!);
    return work;
  }

  /** Threads the fluid's passes run on now (`minWorkPerThread`; 1 without a pool). */
  get activeThreads(): number {
    return this.pool?.active ?? 1;
  }

  /**
   * Acoustic steps run since `startThreads` with the fluid's passes on t threads, index t (empty without a pool):
   * what the pool's thread rule chose over the run.
   */
  get acousticStepsOnThreads(): readonly number[] {
    return this.pool?.acousticStepsOn ?? [];
  }

  /** The worker pool while threads run (null otherwise): coupled bodies attach their passes to it (`fsi.ts`). */
  get workerPool(): WorkerPool | null {
    return this.pool;
  }

  /**
   * Starts a pool of `threads − 1` persistent worker threads (the calling thread is the other one) over the
   * shared storage; `threads` ≤ 1 stops any pool. Results are bit-identical for any thread count
   * (docs/decisions/sph-threads.md). Call `stopThreads` when done (the workers do not keep the process alive).
   * `spin`: busy-wait iterations before a waiting thread sleeps, for measurement (default `SPH_SPIN`, else a spin
   * time that adapts to the waits, poolWait.ts).
   */
  async startThreads(threads: number, spin?: number): Promise<void> {
    await this.stopThreads();
    if (threads <= 1) return;
    this.pool = await WorkerPool.start(this.passes, threads, spin, this.workThreshold);
  }

  /** Stops the worker pool, if any; later steps run on the calling thread. */
  async stopThreads(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.close();
  }

  /**
   * The pool, while the fluid's passes run on more than one of its threads (see `minWorkPerThread`); else null: they
   * run on the calling thread.
   */
  private get threadedPool(): WorkerPool | null {
    const pool = this.pool;
    return pool && pool.active > 1 ? pool : null;
  }

  /** Runs pass `pass` with time step `dt` (s) over all fluid particles, on the pool if any; returns its max. */
  private runPass(pass: number, dt: number): number {
    const pool = this.threadedPool;
    if (pool) return pool.run(pass, dt);
    return this.passes.runPass(pass, 0, this.fluid.count, dt);
  }

  /** After a build on the calling thread: the pool takes the lists and decides its threads for the next passes. */
  private rebalance(): void {
    const pool = this.pool;
    if (!pool) return;
    pool.syncBuffers();
    pool.balance();
  }

  /** Wraps fluid particles on periodic axes back into the domain. */
  private wrapPeriodic(): void {
    const d = this.o.domain;
    const arrays = [this.fluid.x, this.fluid.y, this.fluid.z];
    for (let a = 0; a < 3; a++) {
      if (!d.periodic[a]) continue;
      const lo = d.lower[a]!;
      const len = d.upper[a]! - lo;
      const v = arrays[a]!;
      for (let i = 0; i < this.fluid.count; i++) {
        const t = v[i]!;
        if (t < lo || t >= lo + len) v[i] = t - Math.floor((t - lo) / len) * len;
      }
    }
  }

  /** Wraps periodic axes and rebuilds the cell lists (on the calling thread; O(N)). */
  private rebuildCells(): void {
    this.wrapPeriodic();
    this.cells.rebuild(this.fluid);
    if (this.o.movingWall) this.wallCells.rebuild(this.wall);
  }

  /** Builds both neighbour lists on the calling thread, growing them as needed. */
  private buildNeighboursSerially(): void {
    if (this.o.backend === 'wasm') {
      // The kernel never grows the lists: it reports an overflow, and the build starts again with larger ones.
      while (this.passes.buildNeighbours(0, this.fluid.count, 0, 1) !== 0) this.growLists();
      return;
    }
    buildNeighbours(this.fluid, this.fluid, this.cells, this.kernel, true, this.inner, this.gradientScale);
    if (this.wall.count > 0) {
      buildNeighbours(this.fluid, this.wall, this.wallCells, this.kernel, false, this.contact, this.gradientScale);
    } else {
      this.contact.start.fill(0);
      this.contact.end.fill(0);
    }
  }

  /** Grows both lists (after a thread's pair region overflowed); the serial build then fills them. */
  private growLists(): void {
    for (const list of [this.inner, this.contact]) {
      list.pairs = 0;
      list.grow();
    }
  }

  /**
   * Rebuilds cells and neighbour lists at the current positions. The cell list is built on the calling
   * thread; with a pool, each thread then builds the neighbour rows of its particles into its own region of
   * the pair arrays (falling back to a serial build with larger lists if a region overflows).
   */
  updateNeighbours(): void {
    this.rebuildCells();
    const pool = this.pool;
    if (pool) {
      pool.syncBuffers();
      if (pool.balancedCount !== this.fluid.count) pool.balance();
    }
    if (pool && pool.active > 1) {
      if (pool.run(Pass.BuildNeighbours, 0) === 0) {
        pool.balance();
        return;
      }
      this.growLists();
    }
    this.buildNeighboursSerially();
    this.rebalance();
  }

  /**
   * `updateNeighbours` then `densitySummation`, in one pass on a pool (a particle's summation reads only its own
   * row); returns the maximum speed², m²/s².
   */
  private neighboursAndSummation(): number {
    const pool = this.pool;
    // Open boundaries create and remove particles between advection steps: split the new count first.
    if (pool && pool.balancedCount !== this.fluid.count) pool.balance();
    if (!pool || pool.active === 1) {
      this.updateNeighbours();
      return this.passes.densitySummation(0, this.fluid.count);
    }
    this.rebuildCells();
    pool.syncBuffers();
    const vmax2 = pool.run(Pass.NeighboursAndSummation, 0);
    if (vmax2 !== OVERFLOW) {
      pool.balance();
      return vmax2;
    }
    // Some threads summed already: restore ρ (saved by the pass) so the summation below starts from the same state.
    this.fluid.rho.set(this.passes.rhoHalf.subarray(0, this.fluid.count));
    this.growLists();
    this.buildNeighboursSerially();
    pool.syncBuffers();
    pool.balance();
    return pool.run(Pass.DensitySummation, 0);
  }

  /** Density by summation (free-surface variant if configured); updates pressure and volume. */
  densitySummation(): void {
    this.vmax2 = this.runPass(Pass.DensitySummation, 0);
  }

  /** Body force plus viscous acceleration into the advection-step acceleration `ap`, m/s². */
  viscousAndBodyForce(): void {
    this.runPass(Pass.ViscousAndBodyForce, 0);
  }

  /** Per-particle viscosity (Pa·s) and shear rate (1/s) of the last advection step, with a `viscosity` model. */
  get particleViscosity(): { mu: Float64Array; shearRate: Float64Array } {
    return { mu: this.passes.mu, shearRate: this.passes.shearRate };
  }

  /** Advection time step (speed and viscous criteria), s. */
  advectionTimeStep(): number {
    const speed = Math.max(Math.sqrt(this.vmax2), this.o.uRef);
    return Math.min((this.o.advectionCfl * this.h) / speed, this.viscousTimeStep());
  }

  /**
   * Viscous limit of the advection step, s: CFL_adv · h² / ν_max (∞ without viscosity). The viscous force is
   * explicit and frozen over the advection step, so the step actually taken (the acoustic steps that cover it)
   * must not exceed it: at H/40 in the Poiseuille channel an overshoot of one acoustic step (up to 1.5× the
   * limit) made the viscous update unstable (docs/validation.md).
   */
  viscousTimeStep(): number {
    const nu = (this.o.viscosity ? maxViscosity(this.o.viscosity) : this.o.mu) / this.o.rho0;
    return nu > 0 ? (this.o.advectionCfl * this.h * this.h) / nu : Infinity;
  }

  /** Acoustic time step, s. */
  acousticTimeStep(): number {
    return (this.o.acousticCfl * this.h) / (this.o.c0 + Math.sqrt(this.vmax2));
  }

  /**
   * Pressure relaxation (first half of an acoustic step of `dt` s), any dimension: half-step density, pressure,
   * volume and position, pair forces, the velocity update and the position half-step of the density relaxation,
   * in one pass. Runs on the calling thread (the generic code, also for 2D).
   */
  pressureRelaxation(dt: number): void {
    this.passes.pressureStep(0, this.fluid.count, dt);
  }

  /**
   * Density relaxation (second half of an acoustic step of `dt` s), any dimension: pair divergence and Riemann
   * dissipation with the density and velocity updates and the maximum speed. Runs on the calling thread (the
   * generic code, also for 2D).
   */
  densityRelaxation(dt: number): void {
    this.vmax2 = this.passes.densityStep(0, this.fluid.count, dt);
    this.passes.commitVelocity();
  }

  /** 2D pressure relaxation (the 2D specialisation of `pressureRelaxation`), on the calling thread. */
  pressureRelaxation2d(dt: number): void {
    this.passes.pressureStep2d(0, this.fluid.count, dt);
  }

  /** 2D density relaxation (the 2D specialisation of `densityRelaxation`), on the calling thread. */
  densityRelaxation2d(dt: number): void {
    this.vmax2 = this.passes.densityStep2d(0, this.fluid.count, dt);
    this.passes.commitVelocity();
  }

  /**
   * One advection step: neighbour rebuild, density summation, viscous and body forces, then inner
   * acoustic steps until the advection step (s) is covered or `endTime` (s) is reached. `hooks` couple a solid
   * (`fsi.ts`). Returns the number of acoustic steps taken.
   */
  advectionStep(endTime = Infinity, hooks?: AdvectionHooks): number {
    // The pool times the step for its thread rule, and applies the rule's choice for it.
    this.pool?.beginAdvectionStep();
    this.o.wallMotion?.moveTo(this.wall, this.counters.time);
    // Two passes (two barriers with threads) before the acoustic steps; see docs/decisions/sph-threads.md.
    this.vmax2 = this.neighboursAndSummation();
    this.runPass(Pass.ForcesAndTransport, 0);
    hooks?.forcesReady?.();
    // As in the SPHinXsys cases, the last acoustic step is not shortened to land exactly on the advection
    // step (it may overshoot it by less than one acoustic step); only the end time and the viscous stability limit
    // are hit exactly (SPHinXsys lets the overshoot pass the viscous limit too, which is unstable when the
    // acoustic step is not much smaller than the viscous one: fine resolutions of viscous flows).
    const remaining = endTime - this.counters.time;
    const big = Math.min(this.advectionTimeStep(), remaining);
    const cap = Math.min(this.viscousTimeStep(), remaining);
    let elapsed = 0;
    let steps = 0;
    while (elapsed < big - 1e-12 * big) {
      const dt = Math.min(this.acousticTimeStep(), cap - elapsed);
      // Three passes per acoustic step (two with the fused pressure pass). On threads, one publication runs them
      // all, each starting once the one before is complete (WorkerPool.run); docs/decisions/sph-threads.md.
      const fused = this.fusedPressure;
      const pool = this.threadedPool;
      if (pool && fused) this.vmax2 = pool.run(Pass.PressureStep, dt, Pass.DensityStep);
      else if (pool) this.vmax2 = pool.run(Pass.PressureHalfStep, dt, Pass.PressureForces, Pass.DensityStep);
      else {
        // On the calling thread.
        const n = this.fluid.count;
        if (fused) this.passes.runPass(Pass.PressureStep, 0, n, dt);
        else {
          this.passes.runPass(Pass.PressureHalfStep, 0, n, dt);
          this.passes.runPass(Pass.PressureForces, 0, n, dt);
        }
        this.vmax2 = this.passes.runPass(Pass.DensityStep, 0, n, dt);
      }
      this.passes.commitVelocity();
      hooks?.acoustic?.(dt);
      elapsed += dt;
      steps++;
    }
    this.counters.time += elapsed;
    this.counters.advectionSteps++;
    this.counters.acousticSteps += steps;
    this.pool?.endAdvectionStep(steps);
    return steps;
  }

  /** Runs to simulated time `endTime` (s), calling `onAdvection` after every advection step. */
  run(endTime: number, onAdvection?: (counters: FluidCounters) => void): void {
    runSync(this, endTime, onAdvection);
  }

  /** One advection step towards `endTime` (s); the step of `runAsync`. */
  step(endTime: number): void {
    this.advectionStep(endTime);
  }

  /**
   * Runs to simulated time `endTime` (s) like `run`, reporting progress after every advection step and yielding
   * to the event loop every `yieldEveryMs` so that `signal` can cancel it between advection steps. Resolves to how
   * the run ended; a cancelled run leaves a consistent state at the end of an advection step, from which `run`,
   * `runAsync` or `checkpoint` can continue.
   */
  runAsync(endTime: number, options: RunOptions = {}): Promise<RunStatus> {
    return runAsync(this, endTime, options);
  }
}
