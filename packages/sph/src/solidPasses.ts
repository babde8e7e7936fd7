import { det3, multiply3 } from './mat3';
import { ElasticMaterial, type ElasticMaterialOptions } from './material';
import { NeighbourList } from './neighbours';
import { ParticleArrays, type Dimension, type SharedRegion } from './particles';
import type { PassTable, TableSpec } from './pool';

/** Codes of the elastic solid's passes (`SolidPasses.runPass`). */
export const SolidPass = {
  /** First half of a step on own particles: r += v dt/2, F += Ḟ dt/2, ρ, P = F S(F). */
  HalfStep: 1,
  /** Stress (and numerical-damping) acceleration from the neighbours' half-step r, v, F, P. */
  StressAcceleration: 2,
  /** Velocity update (body force, external force, mass damping), clamps, then r += v dt/2. */
  Velocity: 3,
  /** Ḟ from the neighbours' new velocities, then F += Ḟ dt/2. */
  DeformationRate: 4,
  /** The range's acoustic time-step candidate, negated (the pool combines partials by maximum). */
  TimeStep: 5,
} as const;

/** The resolved settings of the solid's passes (a plain object, so it can go to a worker). */
export interface SolidPassSettings {
  dim: Dimension;
  /** Smoothing length, m. */
  h: number;
  /** Material parameters (each thread builds its own `ElasticMaterial`: it has scratch space). */
  material: ElasticMaterialOptions;
  /** Body-force acceleration, m/s². */
  gravity: readonly [number, number, number];
  /** Mass-proportional damping η, 1/s. */
  damping: number;
  /** Acoustic CFL number. */
  acousticCfl: number;
  /** Time-step divisor of the gradient operator (`PairGradients.stencilFactor`). */
  stencilFactor: number;
}

/** The per-particle and per-pair arrays of a solid besides its `ParticleArrays` (all on SharedArrayBuffers). */
export interface SolidArrays {
  /** Reference positions, m. */
  x0: Float64Array;
  y0: Float64Array;
  z0: Float64Array;
  /** Deformation gradients F, rates Ḟ (1/s) and first Piola–Kirchhoff stresses P (Pa), 9 per particle. */
  F: Float64Array;
  dF: Float64Array;
  P: Float64Array;
  /** 1 for clamped particles. */
  fixed: Uint8Array;
  /** Per pair: gradient weights g_ij and transposed weights h_ij = (V_j/V_i) g_ji, 1/m. */
  gx: Float64Array;
  gy: Float64Array;
  gz: Float64Array;
  hx: Float64Array;
  hy: Float64Array;
  hz: Float64Array;
  /** Per particle: Σ_j g_ij, 3 per particle, 1/m. */
  gSum: Float64Array;
  /** Per pair: V_j⁰ dW/dr of the reference configuration. */
  dwv: Float64Array;
  /** Per pair: numerical-damping factor κ · W_ij/W₀ · ½ · ½ρ₀c₀h · (d/r⁰_ij)², Pa·s/m². */
  dampingFactor: Float64Array;
}

/** What a worker needs to build the passes of a solid (the `data` of its `TableSpec`). */
export interface SolidPassData {
  settings: SolidPassSettings;
  capacity: number;
  count: number;
  particles: Record<string, SharedRegion>;
  inner: { rows: number; buffers: Record<string, SharedRegion> };
  arrays: Record<keyof SolidArrays, SharedArrayBuffer>;
}

/**
 * The per-particle passes of the total Lagrangian elastic solid (`ElasticSolid`), each over a particle range
 * `[i0, i1)`. One time step is four passes with a barrier after each (every pass reads neighbours' values that
 * the one before wrote): half step, stress acceleration, velocity (with the clamps and the second half of the
 * position update), deformation rate. A pass writes only its own particles' fields and a particle's arithmetic
 * (its neighbours in the fixed reference order) does not depend on the range: results are bit-identical for any
 * thread count. The same class runs on the calling thread and in the pool's workers (`PassTable`); nothing is
 * allocated per pass.
 */
export class SolidPasses implements PassTable {
  readonly particles: ParticleArrays;
  readonly inner: NeighbourList;
  readonly a: SolidArrays;
  readonly s: SolidPassSettings;
  private readonly material: ElasticMaterial;
  /** PK2 stress of one particle. */
  private readonly stress = new Float64Array(9);
  /** 3D accumulators of the stress pass (damping and stress sums). */
  private readonly dd = new Float64Array(3);
  private readonly sum = new Float64Array(3);
  /** Thread ranges for `splitThreads` threads: thread t owns `[bounds[t], bounds[t + 1])`. */
  private bounds = new Int32Array(2);
  private splitThreads = 0;

  constructor(particles: ParticleArrays, inner: NeighbourList, arrays: SolidArrays, settings: SolidPassSettings) {
    this.particles = particles;
    this.inner = inner;
    this.a = arrays;
    this.s = settings;
    this.material = new ElasticMaterial(settings.material);
  }

  /** The spec from which a worker builds these passes over the same shared storage (`WorkerPool.attach`). */
  spec(): TableSpec {
    const p = this.particles;
    const arrays = {} as Record<keyof SolidArrays, SharedArrayBuffer>;
    for (const [name, value] of Object.entries(this.a) as [keyof SolidArrays, Float64Array | Uint8Array][]) {
      arrays[name] = value.buffer as SharedArrayBuffer;
    }
    const data: SolidPassData = {
      settings: this.s,
      capacity: p.capacity,
      count: p.count,
      particles: p.buffers(),
      inner: { rows: this.inner.start.length - 1, buffers: this.inner.buffers() },
      arrays,
    };
    return { module: new URL('./solidPasses.ts', import.meta.url).href, factory: 'solidPassTable', data };
  }

  /** Runs pass `pass` over this thread's range of a split into `threads` ranges of about equal work. */
  runThread(pass: number, thread: number, threads: number, dt: number): number {
    if (threads !== this.splitThreads) this.split(threads);
    return this.runPass(pass, this.bounds[thread]!, this.bounds[thread + 1]!, dt);
  }

  /**
   * Splits the particles into `threads` contiguous ranges of about equal work (one unit per particle and per
   * pair; the reference neighbours never change, so this runs once per thread count).
   */
  private split(threads: number): void {
    const n = this.particles.count;
    const { start, end } = this.inner;
    let total = 0;
    for (let i = 0; i < n; i++) total += 1 + end[i]! - start[i]!;
    const bounds = new Int32Array(threads + 1);
    let done = 0;
    let i = 0;
    for (let t = 1; t < threads; t++) {
      const target = (total * t) / threads;
      while (i < n && done < target) {
        done += 1 + end[i]! - start[i]!;
        i++;
      }
      bounds[t] = i;
    }
    bounds[threads] = n;
    this.bounds = bounds;
    this.splitThreads = threads;
  }

  /** Runs pass `pass` (a `SolidPass` code) over `[i0, i1)` with time step `dt` (s); see `SolidPass`. */
  runPass(pass: number, i0: number, i1: number, dt: number): number {
    const is2d = this.s.dim === 2;
    switch (pass) {
      case SolidPass.HalfStep:
        this.halfStep(i0, i1, dt);
        return 0;
      case SolidPass.StressAcceleration:
        if (is2d) this.stressAcceleration2d(i0, i1);
        else this.stressAcceleration3d(i0, i1);
        return 0;
      case SolidPass.Velocity:
        this.velocity(i0, i1, dt);
        return 0;
      case SolidPass.DeformationRate:
        if (is2d) this.velocityGradient2d(i0, i1);
        else this.velocityGradient3d(i0, i1);
        this.halfDeformation(i0, i1, dt);
        return 0;
      case SolidPass.TimeStep:
        return -this.timeStep(i0, i1);
      default:
        throw new RangeError(`unknown solid pass ${pass}`);
    }
  }

  /** r += v dt/2; F += Ḟ dt/2; ρ = ρ₀/det F; P = F S(F). */
  halfStep(i0: number, i1: number, dt: number): void {
    const { x, y, z, vx, vy, vz, rho } = this.particles;
    const { F, dF, P } = this.a;
    const mat = this.material;
    const half = 0.5 * dt;
    const s = this.stress;
    for (let i = i0; i < i1; i++) {
      x[i] = x[i]! + vx[i]! * half;
      y[i] = y[i]! + vy[i]! * half;
      z[i] = z[i]! + vz[i]! * half;
      const o = 9 * i;
      for (let k = 0; k < 9; k++) F[o + k] = F[o + k]! + dF[o + k]! * half;
      rho[i] = mat.rho0 / det3(F, o);
      mat.stressPK2(F, o, s, 0);
      multiply3(F, o, s, 0, P, o);
    }
  }

  /**
   * Stress acceleration a_i = (1/ρ₀) [P_i G_i + F_i Σ_j f d_ij e_ij + Σ_j (d_ij F_j f e_ij − P_j h_ij)] with
   * G_i = Σ_j g_ij, f = V_j dW_ij and d_ij the damping stress factor; no per-pair reads of particle i's tensors.
   * 2D: only the in-plane block of each tensor.
   */
  stressAcceleration2d(i0: number, i1: number): void {
    const { x, y, vx, vy, ax, ay } = this.particles;
    const { F, P, gSum, hx, hy, dwv, dampingFactor: df } = this.a;
    const { start, end, j: nj, ex, ey } = this.inner;
    const invRho0 = 1 / this.material.rho0;
    for (let i = i0; i < i1; i++) {
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
  stressAcceleration3d(i0: number, i1: number): void {
    const { x, y, z, vx, vy, vz, ax, ay, az } = this.particles;
    const { F, P, hx, hy, hz, dwv, dampingFactor: df } = this.a;
    const { start, end, j: nj, ex, ey, ez } = this.inner;
    const invRho0 = 1 / this.material.rho0;
    const { dd, sum } = this;
    for (let i = i0; i < i1; i++) {
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
      ax[i] = this.acceleration3d(i, 0) * invRho0;
      ay[i] = this.acceleration3d(i, 1) * invRho0;
      az[i] = this.acceleration3d(i, 2) * invRho0;
    }
  }

  /** Component `a` of ρ₀ a_i from the pair sums of `stressAcceleration3d`. */
  private acceleration3d(i: number, a: number): number {
    const { F, P, gSum } = this.a;
    const o = 9 * i + 3 * a;
    let v = this.sum[a]!;
    for (let b = 0; b < 3; b++) v += P[o + b]! * gSum[3 * i + b]! + F[o + b]! * this.dd[b]!;
    return v;
  }

  /** v += (a + a_external + g − η v) dt; clamped particles back to r⁰ at rest; then r += v dt/2. */
  velocity(i0: number, i1: number, dt: number): void {
    const { x, y, z, vx, vy, vz, ax, ay, az, apx, apy, apz } = this.particles;
    const { x0, y0, z0, fixed } = this.a;
    const [gx, gy, gz] = this.s.gravity;
    const eta = this.s.damping;
    const half = 0.5 * dt;
    for (let i = i0; i < i1; i++) {
      vx[i] = vx[i]! + (ax[i]! + apx[i]! + gx - eta * vx[i]!) * dt;
      vy[i] = vy[i]! + (ay[i]! + apy[i]! + gy - eta * vy[i]!) * dt;
      vz[i] = vz[i]! + (az[i]! + apz[i]! + gz - eta * vz[i]!) * dt;
      if (fixed[i] !== 0) {
        x[i] = x0[i]!;
        y[i] = y0[i]!;
        z[i] = z0[i]!;
        vx[i] = 0;
        vy[i] = 0;
        vz[i] = 0;
      }
      x[i] = x[i]! + vx[i]! * half;
      y[i] = y[i]! + vy[i]! * half;
      z[i] = z[i]! + vz[i]! * half;
    }
  }

  /** Ḟ_i = Σ_j (v_j − v_i) ⊗ g_ij into `dF` (2D: the in-plane block; the rest stays zero). */
  velocityGradient2d(i0: number, i1: number): void {
    const { vx, vy } = this.particles;
    const { start, end, j: nj } = this.inner;
    const { gx, gy, dF } = this.a;
    for (let i = i0; i < i1; i++) {
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
  velocityGradient3d(i0: number, i1: number): void {
    const { vx, vy, vz } = this.particles;
    const { start, end, j: nj } = this.inner;
    const { gx, gy, gz, dF } = this.a;
    for (let i = i0; i < i1; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const vzi = vz[i]!;
      let a00 = 0;
      let a01 = 0;
      let a02 = 0;
      let a10 = 0;
      let a11 = 0;
      let a12 = 0;
      let a20 = 0;
      let a21 = 0;
      let a22 = 0;
      const kEnd = end[i]!;
      for (let k = start[i]!; k < kEnd; k++) {
        const j = nj[k]!;
        const g0 = gx[k]!;
        const g1 = gy[k]!;
        const g2 = gz[k]!;
        const d0 = vx[j]! - vxi;
        const d1 = vy[j]! - vyi;
        const d2 = vz[j]! - vzi;
        a00 += d0 * g0;
        a01 += d0 * g1;
        a02 += d0 * g2;
        a10 += d1 * g0;
        a11 += d1 * g1;
        a12 += d1 * g2;
        a20 += d2 * g0;
        a21 += d2 * g1;
        a22 += d2 * g2;
      }
      const o = 9 * i;
      dF[o] = a00;
      dF[o + 1] = a01;
      dF[o + 2] = a02;
      dF[o + 3] = a10;
      dF[o + 4] = a11;
      dF[o + 5] = a12;
      dF[o + 6] = a20;
      dF[o + 7] = a21;
      dF[o + 8] = a22;
    }
  }

  /** F += Ḟ dt/2. */
  private halfDeformation(i0: number, i1: number, dt: number): void {
    const { F, dF } = this.a;
    const half = 0.5 * dt;
    for (let o = 9 * i0; o < 9 * i1; o++) F[o] = F[o]! + dF[o]! * half;
  }

  /**
   * The acoustic time step over `[i0, i1)`, s: CFL · min(√(h/|a|max), h/(σ c₀ + |v|max)). Every operation is
   * monotone in the maxima, so the minimum over ranges equals the step over all particles bit for bit.
   */
  timeStep(i0: number, i1: number): number {
    const { vx, vy, vz, ax, ay, az, apx, apy, apz } = this.particles;
    const { h, acousticCfl, stencilFactor } = this.s;
    const c0 = this.material.soundSpeed;
    const [gx, gy, gz] = this.s.gravity;
    let amax2 = 0;
    let vmax2 = 0;
    for (let i = i0; i < i1; i++) {
      const a2 = (ax[i]! + apx[i]! + gx) ** 2 + (ay[i]! + apy[i]! + gy) ** 2 + (az[i]! + apz[i]! + gz) ** 2;
      const v2 = vx[i]! * vx[i]! + vy[i]! * vy[i]! + vz[i]! * vz[i]!;
      if (a2 > amax2) amax2 = a2;
      if (v2 > vmax2) vmax2 = v2;
    }
    const byAcceleration = Math.sqrt(h / (Math.sqrt(amax2) + 1e-300));
    return acousticCfl * Math.min(byAcceleration, h / (stencilFactor * c0 + Math.sqrt(vmax2)));
  }
}

/** Worker-side factory of `SolidPasses` (named in `SolidPasses.spec`): views the shared storage of `data`. */
export function solidPassTable(data: unknown): SolidPasses {
  const d = data as SolidPassData;
  const particles = new ParticleArrays(d.settings.dim, d.capacity, d.particles);
  particles.count = d.count;
  const inner = new NeighbourList(d.inner.rows, 0, d.inner.buffers);
  const f = (name: keyof SolidArrays): Float64Array => new Float64Array(d.arrays[name]);
  const arrays: SolidArrays = {
    x0: f('x0'),
    y0: f('y0'),
    z0: f('z0'),
    F: f('F'),
    dF: f('dF'),
    P: f('P'),
    fixed: new Uint8Array(d.arrays.fixed),
    gx: f('gx'),
    gy: f('gy'),
    gz: f('gz'),
    hx: f('hx'),
    hy: f('hy'),
    hz: f('hz'),
    gSum: f('gSum'),
    dwv: f('dwv'),
    dampingFactor: f('dampingFactor'),
  };
  return new SolidPasses(particles, inner, arrays, d.settings);
}
