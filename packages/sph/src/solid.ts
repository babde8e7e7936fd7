import { CellLinkedList } from './cellList';
import { WendlandC2, smoothingLength } from './kernel';
import { multiply3, setIdentity, det3 } from './mat3';
import { ElasticMaterial, vonMisesStrain, vonMisesStress, type ElasticMaterialOptions } from './material';
import { NeighbourList, buildNeighbours } from './neighbours';
import { sharedFloat64, type Dimension, type ParticleArrays } from './particles';
import type { OutputSource } from './output';
import { runAsync, type RunOptions, type RunStatus } from './run';
import { pairGradients, type GradientOrder } from './solidGradient';

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
  /** Largest stencil weight relative to first order (`PairGradients.stencilFactor`); it divides the time step. */
  readonly stencilFactor: number;
  /** Per pair: the gradient weights g_ij and the transposed weights h_ij = (V_j/V_i) g_ji, 1/m. */
  private readonly gx: Float64Array;
  private readonly gy: Float64Array;
  private readonly gz: Float64Array;
  private readonly hx: Float64Array;
  private readonly hy: Float64Array;
  private readonly hz: Float64Array;
  /** Per particle: Σ_j g_ij, 3 per particle, 1/m. */
  private readonly gSum: Float64Array;
  /** Per pair: V_j⁰ dW/dr (reference configuration), 1/m (2D) or 1/m (3D). */
  private readonly dwv: Float64Array;
  /**
   * Per pair: the numerical-damping stress per unit of (r_i − r_j)·(v_i − v_j) and of (F_i + F_j),
   * κ · W_ij/W₀ · ½ · ½ρ₀c₀h · (d/r⁰_ij)², Pa·s/m².
   */
  private readonly dampingFactor: Float64Array;
  /** Counters. */
  readonly counters: SolidCounters = { time: 0, steps: 0 };
  private readonly o: Required<Omit<SolidOptions, 'material' | 'fixed' | 'gradientOrder'>>;
  private readonly scratch = new Float64Array(18);
  private derived: Float64Array[] | undefined;

  /** Sets up the solid of `particles` (their positions are the reference configuration; velocities may be set). */
  constructor(particles: ParticleArrays, options: SolidOptions) {
    const material =
      options.material instanceof ElasticMaterial ? options.material : new ElasticMaterial(options.material);
    this.o = {
      dim: options.dim,
      dp: options.dp,
      gravity: options.gravity ?? [0, 0, 0],
      damping: options.damping ?? 0,
      acousticCfl: options.acousticCfl ?? 0.6,
      numericalDamping: options.numericalDamping ?? 0.25,
    };
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
    this.fixed = new Uint8Array(cap);
    for (let i = 0; i < n; i++) {
      setIdentity(this.F, 9 * i);
      particles.rho[i] = material.rho0;
      particles.mass[i] = material.rho0 * particles.vol[i]!;
      if (options.fixed?.(particles.x[i]!, particles.y[i]!, particles.z[i]!)) this.fixed[i] = 1;
    }
    this.inner = referenceNeighbours(particles, this.kernel, options.dim);
    const { start, end, j: nj, w, dw, r } = this.inner;
    this.dwv = new Float64Array(this.inner.capacity);
    this.dampingFactor = new Float64Array(this.inner.capacity);
    const scale = (this.o.numericalDamping * 0.25 * material.rho0 * material.soundSpeed * this.h) / this.kernel.w(0);
    for (let i = 0; i < n; i++) {
      for (let k = start[i]!; k < end[i]!; k++) {
        this.dwv[k] = dw[k]! * particles.vol[nj[k]!]!;
        this.dampingFactor[k] = (scale * w[k]! * options.dim * options.dim) / (r[k]! * r[k]!);
      }
    }
    this.gradientOrder = options.gradientOrder ?? 1;
    const g = pairGradients(this.inner, n, particles.vol, options.dim, this.h, this.gradientOrder);
    ({ gx: this.gx, gy: this.gy, gz: this.gz, hx: this.hx, hy: this.hy, hz: this.hz, B: this.B } = g);
    this.gSum = g.rowSum;
    this.stencilFactor = g.stencilFactor;
  }

  /** Acoustic time step, s: CFL · min over particles of min(√(h/|a|), h/(σ c₀ + |v|)), σ the stencil factor. */
  timeStep(): number {
    const { vx, vy, vz, ax, ay, az, apx, apy, apz, count } = this.particles;
    const h = this.h;
    const c0 = this.material.soundSpeed;
    const [gx, gy, gz] = this.o.gravity;
    let amax2 = 0;
    let vmax2 = 0;
    for (let i = 0; i < count; i++) {
      const a2 = (ax[i]! + apx[i]! + gx) ** 2 + (ay[i]! + apy[i]! + gy) ** 2 + (az[i]! + apz[i]! + gz) ** 2;
      const v2 = vx[i]! * vx[i]! + vy[i]! * vy[i]! + vz[i]! * vz[i]!;
      if (a2 > amax2) amax2 = a2;
      if (v2 > vmax2) vmax2 = v2;
    }
    const byAcceleration = Math.sqrt(h / (Math.sqrt(amax2) + 1e-300));
    return this.o.acousticCfl * Math.min(byAcceleration, h / (this.stencilFactor * c0 + Math.sqrt(vmax2)));
  }

  /** First half of a step: half-step positions and F, stresses, stress acceleration, then the velocity update. */
  private stressRelaxation(dt: number): void {
    const p = this.particles;
    const { x, y, z, vx, vy, vz, ax, ay, az, apx, apy, apz, rho, count } = p;
    const { F, dF, P } = this;
    const mat = this.material;
    const half = 0.5 * dt;
    const s = this.scratch;
    for (let i = 0; i < count; i++) {
      x[i] = x[i]! + vx[i]! * half;
      y[i] = y[i]! + vy[i]! * half;
      z[i] = z[i]! + vz[i]! * half;
      const o = 9 * i;
      for (let k = 0; k < 9; k++) F[o + k] = F[o + k]! + dF[o + k]! * half;
      rho[i] = mat.rho0 / det3(F, o);
      mat.stressPK2(F, o, s, 0);
      multiply3(F, o, s, 0, P, o);
    }
    if (this.o.dim === 2) this.stressAcceleration2d();
    else this.stressAcceleration3d();
    const [gx, gy, gz] = this.o.gravity;
    const eta = this.o.damping;
    for (let i = 0; i < count; i++) {
      vx[i] = vx[i]! + (ax[i]! + apx[i]! + gx - eta * vx[i]!) * dt;
      vy[i] = vy[i]! + (ay[i]! + apy[i]! + gy - eta * vy[i]!) * dt;
      vz[i] = vz[i]! + (az[i]! + apz[i]! + gz - eta * vz[i]!) * dt;
    }
  }

  /**
   * Stress acceleration a_i = (1/ρ₀) [P_i G_i + F_i Σ_j f d_ij e_ij + Σ_j (d_ij F_j f e_ij − P_j h_ij)] with
   * G_i = Σ_j g_ij, f = V_j dW_ij and d_ij the damping stress factor; no per-pair reads of particle i's tensors.
   * 2D: only the in-plane block of each tensor.
   */
  private stressAcceleration2d(): void {
    const { x, y, vx, vy, ax, ay, count } = this.particles;
    const { F, P, gSum, hx, hy } = this;
    const { start, end, j: nj, ex, ey } = this.inner;
    const dwv = this.dwv;
    const df = this.dampingFactor;
    const invRho0 = 1 / this.material.rho0;
    for (let i = 0; i < count; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      let d0 = 0;
      let d1 = 0;
      let s0 = 0;
      let s1 = 0;
      const kEnd = end[i]!;
      for (let k = start[i]!; k < kEnd; k++) {
        const j = nj[k]!;
        const oj = 9 * j;
        const f = dwv[k]!;
        const d = df[k]! * ((xi - x[j]!) * (vxi - vx[j]!) + (yi - y[j]!) * (vyi - vy[j]!));
        const fe0 = f * ex[k]!;
        const fe1 = f * ey[k]!;
        const h0 = hx[k]!;
        const h1 = hy[k]!;
        d0 += d * fe0;
        d1 += d * fe1;
        s0 += d * (F[oj]! * fe0 + F[oj + 1]! * fe1) - P[oj]! * h0 - P[oj + 1]! * h1;
        s1 += d * (F[oj + 3]! * fe0 + F[oj + 4]! * fe1) - P[oj + 3]! * h0 - P[oj + 4]! * h1;
      }
      const oi = 9 * i;
      const g0 = gSum[3 * i]!;
      const g1 = gSum[3 * i + 1]!;
      ax[i] = (P[oi]! * g0 + P[oi + 1]! * g1 + F[oi]! * d0 + F[oi + 1]! * d1 + s0) * invRho0;
      ay[i] = (P[oi + 3]! * g0 + P[oi + 4]! * g1 + F[oi + 3]! * d0 + F[oi + 4]! * d1 + s1) * invRho0;
    }
  }

  /** 3D `stressAcceleration2d` (the full tensors; also correct, only slower, for 2D). */
  private stressAcceleration3d(): void {
    const { x, y, z, vx, vy, vz, ax, ay, az, count } = this.particles;
    const { F, P, gSum, hx, hy, hz } = this;
    const { start, end, j: nj, ex, ey, ez } = this.inner;
    const dwv = this.dwv;
    const df = this.dampingFactor;
    const invRho0 = 1 / this.material.rho0;
    const dd = [0, 0, 0];
    const sum = [0, 0, 0];
    for (let i = 0; i < count; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      const zi = z[i]!;
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const vzi = vz[i]!;
      dd.fill(0);
      sum.fill(0);
      const kEnd = end[i]!;
      for (let k = start[i]!; k < kEnd; k++) {
        const j = nj[k]!;
        const oj = 9 * j;
        const f = dwv[k]!;
        const d =
          df[k]! * ((xi - x[j]!) * (vxi - vx[j]!) + (yi - y[j]!) * (vyi - vy[j]!) + (zi - z[j]!) * (vzi - vz[j]!));
        const fe0 = f * ex[k]!;
        const fe1 = f * ey[k]!;
        const fe2 = f * ez[k]!;
        const h0 = hx[k]!;
        const h1 = hy[k]!;
        const h2 = hz[k]!;
        dd[0]! += d * fe0;
        dd[1]! += d * fe1;
        dd[2]! += d * fe2;
        for (let a = 0; a < 3; a++) {
          const o = oj + 3 * a;
          sum[a]! +=
            d * (F[o]! * fe0 + F[o + 1]! * fe1 + F[o + 2]! * fe2) - P[o]! * h0 - P[o + 1]! * h1 - P[o + 2]! * h2;
        }
      }
      const acc = (a: number): number => {
        const o = 9 * i + 3 * a;
        let v = sum[a]!;
        for (let b = 0; b < 3; b++) v += P[o + b]! * gSum[3 * i + b]! + F[o + b]! * dd[b]!;
        return v * invRho0;
      };
      ax[i] = acc(0);
      ay[i] = acc(1);
      az[i] = acc(2);
    }
  }

  /** Holds the fixed particles at their reference positions, at rest. */
  private constrain(): void {
    const { x, y, z, vx, vy, vz, count } = this.particles;
    const fixed = this.fixed;
    for (let i = 0; i < count; i++) {
      if (fixed[i] === 0) continue;
      x[i] = this.x0[i]!;
      y[i] = this.y0[i]!;
      z[i] = this.z0[i]!;
      vx[i] = 0;
      vy[i] = 0;
      vz[i] = 0;
    }
  }

  /** Second half of a step: half-step positions, the rate Ḟ from the new velocities, then F. */
  private deformationRate(dt: number): void {
    const { x, y, z, vx, vy, vz, count } = this.particles;
    const half = 0.5 * dt;
    for (let i = 0; i < count; i++) {
      x[i] = x[i]! + vx[i]! * half;
      y[i] = y[i]! + vy[i]! * half;
      z[i] = z[i]! + vz[i]! * half;
    }
    if (this.o.dim === 2) this.velocityGradient2d();
    else this.velocityGradient3d();
    const { F, dF } = this;
    for (let i = 0; i < count; i++) {
      const o = 9 * i;
      for (let k = 0; k < 9; k++) F[o + k] = F[o + k]! + dF[o + k]! * half;
    }
  }

  /** Ḟ_i = Σ_j (v_j − v_i) ⊗ g_ij into `dF` (2D: the in-plane block; the rest stays zero). */
  private velocityGradient2d(): void {
    const { vx, vy, count } = this.particles;
    const { start, end, j: nj } = this.inner;
    const { gx, gy, dF } = this;
    for (let i = 0; i < count; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      let a00 = 0;
      let a01 = 0;
      let a10 = 0;
      let a11 = 0;
      const kEnd = end[i]!;
      for (let k = start[i]!; k < kEnd; k++) {
        const j = nj[k]!;
        const g0 = gx[k]!;
        const g1 = gy[k]!;
        const d0 = vx[j]! - vxi;
        const d1 = vy[j]! - vyi;
        a00 += d0 * g0;
        a01 += d0 * g1;
        a10 += d1 * g0;
        a11 += d1 * g1;
      }
      const o = 9 * i;
      dF[o] = a00;
      dF[o + 1] = a01;
      dF[o + 3] = a10;
      dF[o + 4] = a11;
    }
  }

  /** 3D `velocityGradient2d`. */
  private velocityGradient3d(): void {
    const { vx, vy, vz, count } = this.particles;
    const { start, end, j: nj } = this.inner;
    const { gx, gy, gz, dF } = this;
    for (let i = 0; i < count; i++) {
      const o = 9 * i;
      dF.fill(0, o, o + 9);
      const v = [vx[i]!, vy[i]!, vz[i]!];
      const kEnd = end[i]!;
      for (let k = start[i]!; k < kEnd; k++) {
        const j = nj[k]!;
        const g = [gx[k]!, gy[k]!, gz[k]!];
        const d = [vx[j]! - v[0]!, vy[j]! - v[1]!, vz[j]! - v[2]!];
        for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) dF[o + 3 * a + b]! += d[a]! * g[b]!;
      }
    }
  }

  /** One time step of `dt` s (see the class comment). */
  advance(dt: number): void {
    this.stressRelaxation(dt);
    this.constrain();
    this.deformationRate(dt);
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
