import { CellLinkedList } from './cellList';
import { WendlandC2, smoothingLength } from './kernel';
import { invert3, multiply3, setIdentity, det3 } from './mat3';
import { ElasticMaterial, vonMisesStrain, vonMisesStress, type ElasticMaterialOptions } from './material';
import { NeighbourList, buildNeighbours } from './neighbours';
import { sharedFloat64, type Dimension, type ParticleArrays } from './particles';
import type { OutputSource } from './output';
import { runAsync, type RunOptions, type RunStatus } from './run';

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
 * configuration, which are found once. Kernel gradients are corrected by B_i = (−Σ_j V_j r_ij ⊗ ∇W_ij)⁻¹, so the
 * deformation gradient of any linear displacement field is exact.
 *
 * One time step of `dt` (velocity Verlet, as SPHinXsys's stress relaxation):
 * 1. r += v dt/2; F += Ḟ dt/2; ρ = ρ₀ / det F; P_i B_i with P = F S(F);
 *    a_i = (1/ρ₀) Σ_j V_j dW_ij [P_i B_i + P_j B_j + κ (W_ij/W₀) ½(F_i + F_j) · ½ρ₀c₀h ε̇_ij] e_ij, where
 *    ε̇_ij = (d/r⁰_ij)² (r_i − r_j)·(v_i − v_j) is the pair strain rate and κ = 0.25 the numerical damping;
 *    v += (a + g + a_external − η v) dt;
 * 2. fixed particles: r = r⁰, v = 0;
 * 3. r += v dt/2; Ḟ_i = −Σ_j (v_i − v_j) ⊗ V_j ∇W_ij · B_i; F += Ḟ dt/2.
 * Pair forces are antisymmetric (e_ji = −e_ij), so momentum is conserved up to the fixed particles.
 * Time step: dt = CFL · min_i min(√(h / |a_i|), h / (c₀ + |v_i|)).
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
  /** Kernel-gradient correction matrices B, 9 per particle. */
  readonly B: Float64Array;
  /** Deformation gradients F, 9 per particle. */
  readonly F: Float64Array;
  /** Rates Ḟ, 1/s, 9 per particle. */
  readonly dF: Float64Array;
  /** First Piola–Kirchhoff stress times B, Pa, 9 per particle. */
  readonly PB: Float64Array;
  /** 1 for fixed (clamped) particles. */
  readonly fixed: Uint8Array;
  /** Per pair: V_j⁰ dW/dr (reference configuration), 1/m (2D) or 1/m (3D). */
  private readonly dwv: Float64Array;
  /**
   * Per pair: the numerical-damping stress per unit of (r_i − r_j)·(v_i − v_j) and of (F_i + F_j),
   * κ · W_ij/W₀ · ½ · ½ρ₀c₀h · (d/r⁰_ij)², Pa·s/m².
   */
  private readonly dampingFactor: Float64Array;
  /** Counters. */
  readonly counters: SolidCounters = { time: 0, steps: 0 };
  private readonly o: Required<Omit<SolidOptions, 'material' | 'fixed'>>;
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
    this.B = sharedFloat64(9 * cap);
    this.F = sharedFloat64(9 * cap);
    this.dF = sharedFloat64(9 * cap);
    this.PB = sharedFloat64(9 * cap);
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
    this.correctionMatrices();
  }

  /** B_i = (−Σ_j V_j r_ij dW_ij e_ij ⊗ e_ij)⁻¹ in the reference configuration (identity if singular). */
  private correctionMatrices(): void {
    const { start, end, j: nj, dw, r, ex, ey, ez } = this.inner;
    const vol = this.particles.vol;
    const m = this.scratch;
    for (let i = 0; i < this.particles.count; i++) {
      m.fill(0, 0, 9);
      for (let k = start[i]!; k < end[i]!; k++) {
        const c = -r[k]! * dw[k]! * vol[nj[k]!]!;
        const e = [ex[k]!, ey[k]!, ez[k]!];
        for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) m[3 * a + b] = m[3 * a + b]! + c * e[a]! * e[b]!;
      }
      if (this.o.dim === 2) m[8] = 1;
      if (invert3(m, 0, this.B, 9 * i) === 0) setIdentity(this.B, 9 * i);
    }
  }

  /** Acoustic time step, s: CFL · min over particles of min(√(h/|a|), h/(c₀ + |v|)). */
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
    return this.o.acousticCfl * Math.min(byAcceleration, h / (c0 + Math.sqrt(vmax2)));
  }

  /** First half of a step: half-step positions and F, stresses, stress acceleration, then the velocity update. */
  private stressRelaxation(dt: number): void {
    const p = this.particles;
    const { x, y, z, vx, vy, vz, ax, ay, az, apx, apy, apz, rho, count } = p;
    const { F, dF, B, PB } = this;
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
      multiply3(F, o, s, 0, s, 9);
      multiply3(s, 9, B, o, PB, o);
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
   * Stress acceleration a_i = (1/ρ₀) Σ_j V_j dW_ij (P_i B_i + P_j B_j + d_ij (F_i + F_j)) e_ij, evaluated as
   * (1/ρ₀) [P_i B_i Σ_j f e + F_i Σ_j f d e + Σ_j f (P_j B_j + d F_j) e] with f = V_j dW_ij, which needs no
   * per-pair reads of particle i's tensors. 2D: only the in-plane block of each tensor.
   */
  private stressAcceleration2d(): void {
    const { x, y, vx, vy, ax, ay, count } = this.particles;
    const { F, PB } = this;
    const { start, end, j: nj, ex, ey } = this.inner;
    const dwv = this.dwv;
    const df = this.dampingFactor;
    const invRho0 = 1 / this.material.rho0;
    for (let i = 0; i < count; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      let g0 = 0;
      let g1 = 0;
      let d0 = 0;
      let d1 = 0;
      let s0 = 0;
      let s1 = 0;
      const kEnd = end[i]!;
      for (let k = start[i]!; k < kEnd; k++) {
        const j = nj[k]!;
        const oj = 9 * j;
        const f = dwv[k]!;
        const e0 = ex[k]!;
        const e1 = ey[k]!;
        const d = df[k]! * ((xi - x[j]!) * (vxi - vx[j]!) + (yi - y[j]!) * (vyi - vy[j]!));
        const fe0 = f * e0;
        const fe1 = f * e1;
        g0 += fe0;
        g1 += fe1;
        d0 += d * fe0;
        d1 += d * fe1;
        s0 += (PB[oj]! + d * F[oj]!) * fe0 + (PB[oj + 1]! + d * F[oj + 1]!) * fe1;
        s1 += (PB[oj + 3]! + d * F[oj + 3]!) * fe0 + (PB[oj + 4]! + d * F[oj + 4]!) * fe1;
      }
      const oi = 9 * i;
      ax[i] = (PB[oi]! * g0 + PB[oi + 1]! * g1 + F[oi]! * d0 + F[oi + 1]! * d1 + s0) * invRho0;
      ay[i] = (PB[oi + 3]! * g0 + PB[oi + 4]! * g1 + F[oi + 3]! * d0 + F[oi + 4]! * d1 + s1) * invRho0;
    }
  }

  /** 3D `stressAcceleration2d` (the full tensors; also correct, only slower, for 2D). */
  private stressAcceleration3d(): void {
    const { x, y, z, vx, vy, vz, ax, ay, az, count } = this.particles;
    const { F, PB } = this;
    const { start, end, j: nj, ex, ey, ez } = this.inner;
    const dwv = this.dwv;
    const df = this.dampingFactor;
    const invRho0 = 1 / this.material.rho0;
    const g = [0, 0, 0];
    const dd = [0, 0, 0];
    const sum = [0, 0, 0];
    for (let i = 0; i < count; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      const zi = z[i]!;
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const vzi = vz[i]!;
      g.fill(0);
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
        g[0]! += fe0;
        g[1]! += fe1;
        g[2]! += fe2;
        dd[0]! += d * fe0;
        dd[1]! += d * fe1;
        dd[2]! += d * fe2;
        for (let a = 0; a < 3; a++) {
          const o = oj + 3 * a;
          sum[a]! +=
            (PB[o]! + d * F[o]!) * fe0 + (PB[o + 1]! + d * F[o + 1]!) * fe1 + (PB[o + 2]! + d * F[o + 2]!) * fe2;
        }
      }
      const acc = (a: number): number => {
        const o = 9 * i + 3 * a;
        let v = sum[a]!;
        for (let b = 0; b < 3; b++) v += PB[o + b]! * g[b]! + F[o + b]! * dd[b]!;
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
    const { F, dF, B } = this;
    const s = this.scratch;
    for (let i = 0; i < count; i++) {
      const o = 9 * i;
      // Ḟ = (−Σ_j (v_i − v_j) ⊗ V_j ∇W_ij) · B_i; the sum was left in dF.
      for (let k = 0; k < 9; k++) s[k] = dF[o + k]!;
      multiply3(s, 0, B, o, dF, o);
      for (let k = 0; k < 9; k++) F[o + k] = F[o + k]! + dF[o + k]! * half;
    }
  }

  /** −Σ_j (v_i − v_j) ⊗ V_j ∇W_ij into `dF` (2D: the in-plane block; the rest stays zero). */
  private velocityGradient2d(): void {
    const { vx, vy, count } = this.particles;
    const { start, end, j: nj, ex, ey } = this.inner;
    const dwv = this.dwv;
    const dF = this.dF;
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
        const f = dwv[k]!;
        const g0 = f * ex[k]!;
        const g1 = f * ey[k]!;
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
    const { start, end, j: nj, ex, ey, ez } = this.inner;
    const dwv = this.dwv;
    const dF = this.dF;
    for (let i = 0; i < count; i++) {
      const o = 9 * i;
      dF.fill(0, o, o + 9);
      const v = [vx[i]!, vy[i]!, vz[i]!];
      const kEnd = end[i]!;
      for (let k = start[i]!; k < kEnd; k++) {
        const j = nj[k]!;
        const f = dwv[k]!;
        const g = [f * ex[k]!, f * ey[k]!, f * ez[k]!];
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
