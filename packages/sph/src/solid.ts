import { CellLinkedList } from './cellList';
import { WendlandC2, smoothingLength } from './kernel';
import { setIdentity } from './mat3';
import { ElasticMaterial, vonMisesStrain, vonMisesStress, type ElasticMaterialOptions } from './material';
import { NeighbourList, buildNeighbours } from './neighbours';
import { sharedFloat64, type Dimension, type ParticleArrays } from './particles';
import type { OutputSource } from './output';
import { WorkerPool } from './pool';
import { runAsync, type RunOptions, type RunStatus } from './run';
import { pairGradients, type GradientOrder } from './solidGradient';
import { SolidPass, SolidPasses } from './solidPasses';

/** Settings of an elastic solid (SI units). */
export interface SolidOptions {
  /** Spatial dimension (2D is plane strain). */
  dim: Dimension;
  /** Initial particle spacing, m. */
  dp: number;
  /** Material (or its parameters). */
  material: ElasticMaterial | ElasticMaterialOptions;
  /** Body-force acceleration, m/s² (default none). */
  gravity?: readonly [number, number, number];
  /** True for particles (at their initial position, m) held fixed: a clamped part of the body. */
  fixed?: (x: number, y: number, z: number) => boolean;
  /**
   * Mass-proportional (physical) damping coefficient η, 1/s: adds −η·v to the acceleration. 0 (default) for
   * dynamics; > 0 to reach a static equilibrium.
   */
  damping?: number;
  /** Acoustic CFL number (default 0.6, as SPHinXsys). */
  acousticCfl?: number;
  /** Factor of the pairwise numerical damping (default 0.25, as SPHinXsys; 0 = off). */
  numericalDamping?: number;
  /**
   * Consistency order of the reference gradient (default 1): 1 = SPHinXsys's corrected kernel gradient B_i ∇W_ij,
   * exact for linear fields; 2 = exact for quadratic fields (`solidGradient.ts`), which removes most of the
   * bending-stiffness error of surface particles at about twice the steps (docs/decisions/sph-solid.md).
   */
  gradientOrder?: GradientOrder;
}

/** Counters of a solid simulation so far. */
export interface SolidCounters {
  /** Simulated time, s. */
  time: number;
  /** Time steps taken. */
  steps: number;
}

/**
 * Elastic solid by total Lagrangian SPH after SPHinXsys (Zhang, Rezavand & Hu, JCP 2021; the method of Vignjevic,
 * Reveles & Campbell 2006): every quantity is an SPH sum over the neighbours of the initial (reference)
 * configuration, which are found once. Gradients use pair weights g_ij of the reference configuration
 * (`solidGradient.ts`): ∇u_i = Σ_j (u_j − u_i) ⊗ g_ij, exact for linear fields (order 1, SPHinXsys's
 * g_ij = V_j B_i ∇W_ij) or for quadratic ones (order 2).
 *
 * One time step of `dt` (velocity Verlet, as SPHinXsys's stress relaxation):
 * 1. r += v dt/2; F += Ḟ dt/2; ρ = ρ₀ / det F; P = F S(F);
 *    a_i = (1/ρ₀) [P_i Σ_j g_ij − Σ_j P_j h_ij + Σ_j V_j dW_ij κ (W_ij/W₀) ½(F_i + F_j) · ½ρ₀c₀h ε̇_ij e_ij], where
 *    h_ij = (V_j/V_i) g_ji, ε̇_ij = (d/r⁰_ij)² (r_i − r_j)·(v_i − v_j) is the pair strain rate and κ = 0.25 the
 *    numerical damping. The stress terms are −∂/∂x_i of the discrete strain energy Σ_i V_i Ψ(F_i), so they
 *    conserve momentum and energy; with order-1 weights they are SPHinXsys's Σ_j V_j dW_ij (P_i B_i + P_j B_j) e_ij;
 *    v += (a + g + a_external − η v) dt;
 * 2. fixed particles: r = r⁰, v = 0;
 * 3. r += v dt/2; Ḟ_i = Σ_j (v_j − v_i) ⊗ g_ij; F += Ḟ dt/2.
 * Time step: dt = CFL · min_i min(√(h / |a_i|), h / (σ c₀ + |v_i|)), σ = 1 for order 1 (SPHinXsys) and the
 * stencil factor of `solidGradient.ts` (≈ 2: one-sided surface fits) for order 2.
 *
 * Tensors are 3×3 row-major, 9 per particle (`mat3.ts`); in 2D their z row and column are the identity's.
 */
export class ElasticSolid {
  /** Particles (x current position, v velocity, a stress acceleration, ap external acceleration, ρ, m, V⁰). */
  readonly particles: ParticleArrays;
  /** Material. */
  readonly material: ElasticMaterial;
  /** Kernel. */
  readonly kernel: WendlandC2;
  /** Smoothing length, m. */
  readonly h: number;
  /** Neighbours in the reference configuration (fixed for the whole run). */
  readonly inner: NeighbourList;
  /** Reference (initial) positions, m. */
  readonly x0: Float64Array;
  readonly y0: Float64Array;
  readonly z0: Float64Array;
  /** Kernel-gradient correction matrices B (first order), 9 per particle. */
  readonly B: Float64Array;
  /** Deformation gradients F, 9 per particle. */
  readonly F: Float64Array;
  /** Rates Ḟ, 1/s, 9 per particle. */
  readonly dF: Float64Array;
  /** First Piola–Kirchhoff stress P = F S, Pa, 9 per particle. */
  readonly P: Float64Array;
  /** 1 for fixed (clamped) particles. */
  readonly fixed: Uint8Array;
  /** Gradient order in use. */
  readonly gradientOrder: GradientOrder;
  /** Body-force acceleration, m/s². */
  readonly gravity: readonly [number, number, number];
  /** Largest stencil weight relative to first order (`PairGradients.stencilFactor`); it divides the time step. */
  readonly stencilFactor: number;
  /** Counters. */
  readonly counters: SolidCounters = { time: 0, steps: 0 };
  /** The per-particle passes (shared with the worker threads). */
  private readonly passes: SolidPasses;
  private pool: WorkerPool | null = null;
  /** This solid's table in `pool`. */
  private table = -1;
  /** Whether `pool` was started by this solid (else it is borrowed, e.g. the fluid's). */
  private ownsPool = false;
  private readonly scratch = new Float64Array(18);
  private derived: Float64Array[] | undefined;

  /** Sets up the solid of `particles` (their positions are the reference configuration; velocities may be set). */
  constructor(particles: ParticleArrays, options: SolidOptions) {
    const material =
      options.material instanceof ElasticMaterial ? options.material : new ElasticMaterial(options.material);
    this.particles = particles;
    this.material = material;
    this.h = smoothingLength(options.dp);
    this.kernel = new WendlandC2(this.h, options.dim);
    const n = particles.count;
    const cap = particles.capacity;
    this.x0 = sharedFloat64(cap);
    this.y0 = sharedFloat64(cap);
    this.z0 = sharedFloat64(cap);
    this.x0.set(particles.x.subarray(0, n));
    this.y0.set(particles.y.subarray(0, n));
    this.z0.set(particles.z.subarray(0, n));
    this.F = sharedFloat64(9 * cap);
    this.dF = sharedFloat64(9 * cap);
    this.P = sharedFloat64(9 * cap);
    this.fixed = new Uint8Array(new SharedArrayBuffer(Math.max(1, cap)));
    for (let i = 0; i < n; i++) {
      setIdentity(this.F, 9 * i);
      particles.rho[i] = material.rho0;
      particles.mass[i] = material.rho0 * particles.vol[i]!;
      if (options.fixed?.(particles.x[i]!, particles.y[i]!, particles.z[i]!)) this.fixed[i] = 1;
    }
    this.inner = referenceNeighbours(particles, this.kernel, options.dim);
    const { start, end, j: nj, w, dw, r } = this.inner;
    const dwv = sharedFloat64(this.inner.capacity);
    const dampingFactor = sharedFloat64(this.inner.capacity);
    const numericalDamping = options.numericalDamping ?? 0.25;
    const scale = (numericalDamping * 0.25 * material.rho0 * material.soundSpeed * this.h) / this.kernel.w(0);
    for (let i = 0; i < n; i++) {
      for (let k = start[i]!; k < end[i]!; k++) {
        dwv[k] = dw[k]! * particles.vol[nj[k]!]!;
        dampingFactor[k] = (scale * w[k]! * options.dim * options.dim) / (r[k]! * r[k]!);
      }
    }
    this.gradientOrder = options.gradientOrder ?? 1;
    this.gravity = options.gravity ?? [0, 0, 0];
    const g = pairGradients(this.inner, n, particles.vol, options.dim, this.h, this.gradientOrder);
    this.B = g.B;
    this.stencilFactor = g.stencilFactor;
    const { x0, y0, z0, F, dF, P, fixed } = this;
    const { gx, gy, gz, hx, hy, hz, rowSum: gSum } = g;
    const arrays = { x0, y0, z0, F, dF, P, fixed, gx, gy, gz, hx, hy, hz, gSum, dwv, dampingFactor };
    this.passes = new SolidPasses(particles, this.inner, arrays, {
      dim: options.dim,
      h: this.h,
      material: {
        model: material.model,
        rho0: material.rho0,
        youngsModulus: material.youngsModulus,
        poissonRatio: material.poissonRatio,
      },
      gravity: this.gravity,
      damping: options.damping ?? 0,
      acousticCfl: options.acousticCfl ?? 0.6,
      stencilFactor: this.stencilFactor,
    });
  }

  /** Threads the passes run on (1 without a pool). */
  get threads(): number {
    return this.pool && !this.pool.isClosed ? this.pool.threads : 1;
  }

  /**
   * Starts a pool of `threads − 1` persistent worker threads for this solid's passes (the calling thread is the
   * other one); `threads` ≤ 1 stops any pool. Results are bit-identical for any thread count. Call `stopThreads`
   * when done. `spin`: busy-wait iterations before a waiting thread sleeps (tuning only).
   */
  async startThreads(threads: number, spin?: number): Promise<void> {
    await this.stopThreads();
    if (threads <= 1) return;
    const pool = await WorkerPool.start(null, threads, spin);
    this.useThreads(pool);
    this.ownsPool = true;
  }

  /**
   * Runs the passes on an existing pool (e.g. the fluid's in a coupled case: the passes of the two bodies never
   * run at the same time). The pool stays its owner's; once it is closed the solid runs on the calling thread.
   */
  useThreads(pool: WorkerPool): void {
    this.table = pool.attach(this.passes, this.passes.spec());
    this.pool = pool;
    this.ownsPool = false;
  }

  /** Stops the solid's own pool, if any, or leaves a borrowed one; later steps run on the calling thread. */
  async stopThreads(): Promise<void> {
    const pool = this.pool;
    const owned = this.ownsPool;
    this.pool = null;
    this.ownsPool = false;
    if (pool && owned) await pool.close();
  }

  /** Runs pass `pass` (a `SolidPass`) with time step `dt` (s) over all particles, on the pool if any. */
  private runPass(pass: number, dt: number): number {
    const pool = this.pool;
    if (pool && !pool.isClosed) return pool.runTable(this.table, pass, dt);
    return this.passes.runPass(pass, 0, this.particles.count, dt);
  }

  /** Acoustic time step, s: CFL · min over particles of min(√(h/|a|), h/(σ c₀ + |v|)), σ the stencil factor. */
  timeStep(): number {
    return -this.runPass(SolidPass.TimeStep, 0);
  }

  /** One time step of `dt` s (see the class comment): four passes. */
  advance(dt: number): void {
    this.runPass(SolidPass.HalfStep, dt);
    this.runPass(SolidPass.StressAcceleration, 0);
    this.runPass(SolidPass.Velocity, dt);
    this.runPass(SolidPass.DeformationRate, dt);
    this.counters.time += dt;
    this.counters.steps++;
  }

  /** One acoustic time step, shortened so as not to pass `endTime` (s); the step of `runAsync`. */
  step(endTime: number): void {
    this.advance(Math.min(this.timeStep(), endTime - this.counters.time));
  }

  /** Runs to simulated time `endTime` (s), calling `onStep` after every step. */
  run(endTime: number, onStep?: (counters: SolidCounters) => void): void {
    while (this.counters.time < endTime * (1 - 1e-12)) {
      this.step(endTime);
      onStep?.(this.counters);
    }
  }

  /** Runs to `endTime` (s) with progress and cancellation (see `run.ts`). */
  runAsync(endTime: number, options: RunOptions<SolidCounters> = {}): Promise<RunStatus> {
    return runAsync(this, endTime, options);
  }

  /** Von Mises stress of particle `i`, Pa (from the Cauchy stress; 2D is plane strain). */
  vonMisesStress(i: number): number {
    this.material.stressPK2(this.F, 9 * i, this.scratch, 0);
    return vonMisesStress(this.F, 9 * i, this.scratch, 0);
  }

  /** Von Mises strain of particle `i` (of the Green–Lagrange strain), dimensionless. */
  vonMisesStrain(i: number): number {
    return vonMisesStrain(this.F, 9 * i, this.scratch);
  }

  /**
   * The output fields (SI): position, displacement r − r⁰, velocity, von Mises stress and strain. The derived
   * fields are computed into arrays allocated on the first call and reused.
   */
  output(): OutputSource {
    const p = this.particles;
    const n = p.count;
    const d = (this.derived ??= Array.from({ length: 5 }, () => new Float64Array(p.capacity)));
    const [ux, uy, uz, stress, strain] = d as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
    for (let i = 0; i < n; i++) {
      ux[i] = p.x[i]! - this.x0[i]!;
      uy[i] = p.y[i]! - this.y0[i]!;
      uz[i] = p.z[i]! - this.z0[i]!;
      stress[i] = this.vonMisesStress(i);
      strain[i] = this.vonMisesStrain(i);
    }
    return {
      dim: p.dim,
      count: n,
      id: p.id,
      fields: {
        position: [p.x, p.y, p.z],
        displacement: [ux, uy, uz],
        velocity: [p.vx, p.vy, p.vz],
        von_mises_stress: [stress],
        von_mises_strain: [strain],
      },
    };
  }

  /**
   * Outward unit normals of the reference configuration, 3 per particle: n⁰_i = −Σ_j V_j ∇W_ij / |…| where that sum
   * is at least 5 % of Σ_j V_j |∇W_ij| (particles within a kernel radius of the surface), else zero (interior).
   */
  surfaceNormals(): Float64Array {
    const p = this.particles;
    const { start, end, j: nj, dw, ex, ey, ez } = this.inner;
    const out = new Float64Array(3 * p.count);
    for (let i = 0; i < p.count; i++) {
      let [sx, sy, sz, scale] = [0, 0, 0, 0];
      for (let k = start[i]!; k < end[i]!; k++) {
        const f = dw[k]! * p.vol[nj[k]!]!;
        sx += f * ex[k]!;
        sy += f * ey[k]!;
        sz += f * ez[k]!;
        scale -= f;
      }
      const len = Math.hypot(sx, sy, sz);
      if (len < 0.05 * scale) continue;
      out[3 * i] = -sx / len;
      out[3 * i + 1] = -sy / len;
      out[3 * i + 2] = -sz / len;
    }
    return out;
  }

  /** Total kinetic energy ½ Σ m v², J (J/m in 2D). */
  kineticEnergy(): number {
    const { vx, vy, vz, mass, count } = this.particles;
    let e = 0;
    for (let i = 0; i < count; i++) e += 0.5 * mass[i]! * (vx[i]! ** 2 + vy[i]! ** 2 + vz[i]! ** 2);
    return e;
  }
}

/** Neighbour lists of `particles` in their current (reference) configuration, found once by a cell list. */
function referenceNeighbours(particles: ParticleArrays, kernel: WendlandC2, dim: Dimension): NeighbourList {
  const lower: [number, number, number] = [Infinity, Infinity, dim === 3 ? Infinity : 0];
  const upper: [number, number, number] = [-Infinity, -Infinity, dim === 3 ? -Infinity : 0];
  const axes = [particles.x, particles.y, particles.z];
  for (let a = 0; a < dim; a++) {
    for (let i = 0; i < particles.count; i++) {
      lower[a] = Math.min(lower[a]!, axes[a]![i]!);
      upper[a] = Math.max(upper[a]!, axes[a]![i]!);
    }
    lower[a] = lower[a]! - kernel.cutoff;
    upper[a] = upper[a]! + kernel.cutoff;
  }
  const n = Math.max(1, particles.count);
  const cells = new CellLinkedList({ lower, upper, periodic: [false, false, false] }, kernel.cutoff, n, dim);
  cells.rebuild(particles);
  const list = new NeighbourList(n, n * (dim === 2 ? 32 : 96));
  buildNeighbours(particles, particles, cells, kernel, true, list);
  return list;
}

/**
 * Starts one pool of `threads − 1` workers for all of `solids` (they step one after another, so they can share
 * it) and returns it, or null for `threads` ≤ 1. The caller closes it (`WorkerPool.close`) after the solids'
 * `stopThreads`.
 */
export async function startSolidThreads(
  solids: readonly ElasticSolid[],
  threads: number,
  spin?: number,
): Promise<WorkerPool | null> {
  if (threads <= 1 || solids.length === 0) return null;
  const pool = await WorkerPool.start(null, threads, spin);
  for (const solid of solids) solid.useThreads(pool);
  return pool;
}
