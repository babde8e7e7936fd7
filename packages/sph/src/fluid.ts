import { CellLinkedList, type Domain } from './cellList';
import { WendlandC2, smoothingLength } from './kernel';
import { NeighbourList, buildNeighbours } from './neighbours';
import type { Dimension, ParticleArrays } from './particles';

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
  /** Dynamic viscosity μ, Pa·s (0 for inviscid). */
  mu: number;
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
  /** Acoustic CFL number (default 0.6). */
  acousticCfl?: number;
  /** Advection CFL number (default 0.25). */
  advectionCfl?: number;
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
  /** Static wall particles (may be empty). Walls need `vol` and inward normals `n`. */
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
  private readonly cells: CellLinkedList;
  private readonly wallCells: CellLinkedList;
  private readonly sigma0: number;
  private readonly w0: number;
  /** 1 / lattice gradient moment: makes gradients of linear fields exact on a regular lattice. */
  readonly gradientScale: number;
  private vmax2 = 0;

  /** Sets up a simulation of `fluid` bounded by `wall` (pass an empty body for none). */
  constructor(fluid: ParticleArrays, wall: ParticleArrays, options: FluidOptions) {
    this.o = { acousticCfl: 0.6, advectionCfl: 0.25, transportCorrection: 0, ...options };
    this.fluid = fluid;
    this.wall = wall;
    this.h = smoothingLength(options.dp);
    this.kernel = new WendlandC2(this.h, options.dim);
    this.sigma0 = this.kernel.latticeNumberDensity(options.dp);
    this.w0 = this.kernel.w(0);
    this.gradientScale = 1 / this.kernel.latticeGradientMoment(options.dp);
    const perParticle = options.dim === 2 ? 32 : 96;
    this.cells = new CellLinkedList(options.domain, this.kernel.cutoff, fluid.capacity, options.dim);
    this.wallCells = new CellLinkedList(options.domain, this.kernel.cutoff, Math.max(1, wall.capacity), options.dim);
    this.wallCells.rebuild(wall);
    this.inner = new NeighbourList(fluid.capacity, fluid.capacity * perParticle);
    this.contact = new NeighbourList(fluid.capacity, Math.max(1, fluid.capacity * (perParticle >> 1)));
    const { rho, p, mass, vol } = fluid;
    const c2 = options.c0 * options.c0;
    for (let i = 0; i < fluid.count; i++) {
      p[i] = c2 * (rho[i]! - options.rho0);
      vol[i] = mass[i]! / rho[i]!;
    }
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

  /** Rebuilds cells and neighbour lists at the current positions. */
  updateNeighbours(): void {
    this.wrapPeriodic();
    this.cells.rebuild(this.fluid);
    buildNeighbours(this.fluid, this.fluid, this.cells, this.kernel, true, this.inner, this.gradientScale);
    if (this.wall.count > 0) {
      buildNeighbours(this.fluid, this.wall, this.wallCells, this.kernel, false, this.contact, this.gradientScale);
    } else this.contact.start.fill(0);
  }

  /** Density by summation (free-surface variant if configured); updates pressure and volume. */
  densitySummation(): void {
    const { rho, p, mass, vol, count } = this.fluid;
    const { start, j: nj, w } = this.inner;
    const cs = this.contact.start;
    const cw = this.contact.w;
    const cj = this.contact.j;
    const wallVol = this.wall.vol;
    const { rho0, c0, freeSurface } = this.o;
    const c2 = c0 * c0;
    const scale = rho0 / this.sigma0;
    for (let i = 0; i < count; i++) {
      const mi = mass[i]!;
      let sigma = this.w0;
      const end = start[i + 1]!;
      for (let k = start[i]!; k < end; k++) sigma += (w[k]! * mass[nj[k]!]!) / mi;
      const cend = cs[i + 1]!;
      if (cend > cs[i]!) {
        let s = 0;
        for (let k = cs[i]!; k < cend; k++) s += cw[k]! * wallVol[cj[k]!]!;
        sigma += (s * rho0) / mi;
      }
      const sum = sigma * scale;
      const old = rho[i]!;
      const r = freeSurface ? sum + (Math.max(0, rho0 - sum) * rho0) / old : sum;
      rho[i] = r;
      p[i] = c2 * (r - rho0);
      vol[i] = mi / r;
    }
  }

  /** Body force plus viscous acceleration into the advection-step acceleration `ap`, m/s². */
  viscousAndBodyForce(): void {
    const { vx, vy, vz, apx, apy, apz, rho, vol, count } = this.fluid;
    const { start, j: nj, dw, r } = this.inner;
    const cs = this.contact.start;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cr = this.contact.r;
    const wallVol = this.wall.vol;
    const [gx, gy, gz] = this.o.gravity;
    const twoMu = 2 * this.o.mu;
    const eps = 0.01 * this.h;
    for (let i = 0; i < count; i++) {
      let sx = 0;
      let sy = 0;
      let sz = 0;
      if (twoMu > 0) {
        const vxi = vx[i]!;
        const vyi = vy[i]!;
        const vzi = vz[i]!;
        const end = start[i + 1]!;
        for (let k = start[i]!; k < end; k++) {
          const j = nj[k]!;
          const f = (dw[k]! * vol[j]!) / (r[k]! + eps);
          sx += f * (vxi - vx[j]!);
          sy += f * (vyi - vy[j]!);
          sz += f * (vzi - vz[j]!);
        }
        const cend = cs[i + 1]!;
        for (let k = cs[i]!; k < cend; k++) {
          // Static no-slip wall: mirrored velocity gives a jump of 2 v_i.
          const f = (2 * cdw[k]! * wallVol[cj[k]!]!) / (cr[k]! + eps);
          sx += f * vxi;
          sy += f * vyi;
          sz += f * vzi;
        }
        const c = twoMu / rho[i]!;
        sx *= c;
        sy *= c;
        sz *= c;
      }
      apx[i] = gx + sx;
      apy[i] = gy + sy;
      apz[i] = gz + sz;
    }
  }

  /**
   * Transport-velocity correction: shifts each particle by −coefficient·h²·Σ 2 V_j ∇W_ij (fluid and
   * wall neighbours), pushing particles from crowded to sparse regions to keep the distribution
   * regular in internal shear flows.
   */
  transportVelocityCorrection(): void {
    const coefficient = this.o.transportCorrection;
    if (coefficient <= 0) return;
    const { x, y, z, vol, count, ax, ay, az } = this.fluid;
    const { start, j: nj, dw, ex, ey, ez } = this.inner;
    const cs = this.contact.start;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const cez = this.contact.ez;
    const wallVol = this.wall.vol;
    const c = 2 * coefficient * this.h * this.h;
    // Shifts go to the scratch acceleration arrays first so every particle sees unshifted neighbours.
    for (let i = 0; i < count; i++) {
      let sx = 0;
      let sy = 0;
      let sz = 0;
      const end = start[i + 1]!;
      for (let k = start[i]!; k < end; k++) {
        const d = dw[k]! * vol[nj[k]!]!;
        sx += d * ex[k]!;
        sy += d * ey[k]!;
        sz += d * ez[k]!;
      }
      const cend = cs[i + 1]!;
      for (let k = cs[i]!; k < cend; k++) {
        const d = cdw[k]! * wallVol[cj[k]!]!;
        sx += d * cex[k]!;
        sy += d * cey[k]!;
        sz += d * cez[k]!;
      }
      ax[i] = -c * sx;
      ay[i] = -c * sy;
      az[i] = -c * sz;
    }
    for (let i = 0; i < count; i++) {
      x[i] = x[i]! + ax[i]!;
      y[i] = y[i]! + ay[i]!;
      z[i] = z[i]! + az[i]!;
    }
  }

  /** Maximum fluid speed squared, m²/s². */
  private maxSpeed2(): number {
    const { vx, vy, vz, count } = this.fluid;
    let m = 0;
    for (let i = 0; i < count; i++) {
      const s = vx[i]! * vx[i]! + vy[i]! * vy[i]! + vz[i]! * vz[i]!;
      if (s > m) m = s;
    }
    return m;
  }

  /** Advection time step (speed and viscous criteria), s. */
  advectionTimeStep(): number {
    const nu = this.o.mu / this.o.rho0;
    const speed = Math.max(Math.sqrt(this.vmax2), this.o.uRef, nu / this.h);
    return (this.o.advectionCfl * this.h) / speed;
  }

  /** Acoustic time step, s. */
  acousticTimeStep(): number {
    return (this.o.acousticCfl * this.h) / (this.o.c0 + Math.sqrt(this.vmax2));
  }

  /**
   * Pressure relaxation (first half of an acoustic step of `dt` s), any dimension, in two passes: half-step
   * density, pressure, volume and position; then pair forces with the velocity update and the position
   * half-step of the density relaxation (positions are not read by the cached pair geometry).
   */
  pressureRelaxation(dt: number): void {
    const f = this.fluid;
    const { x, y, z, vx, vy, vz, apx, apy, apz, rho, drho, p, mass, vol, count } = f;
    const { rho0, c0 } = this.o;
    const c2 = c0 * c0;
    const halfDt = 0.5 * dt;
    for (let i = 0; i < count; i++) {
      const r = rho[i]! + drho[i]! * halfDt;
      rho[i] = r;
      p[i] = c2 * (r - rho0);
      vol[i] = mass[i]! / r;
      x[i] = x[i]! + vx[i]! * halfDt;
      y[i] = y[i]! + vy[i]! * halfDt;
      z[i] = z[i]! + vz[i]! * halfDt;
    }
    const { start, j: nj, dw, ex, ey, ez } = this.inner;
    const cs = this.contact.start;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cr = this.contact.r;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const cez = this.contact.ez;
    const wallVol = this.wall.vol;
    const invRhoC = 1 / (rho0 * c0);
    for (let i = 0; i < count; i++) {
      const pi = p[i]!;
      let sx = 0;
      let sy = 0;
      let sz = 0;
      let diss = 0;
      const end = start[i + 1]!;
      for (let k = start[i]!; k < end; k++) {
        const j = nj[k]!;
        const pj = p[j]!;
        const dwv = dw[k]! * vol[j]!;
        const s = (pi + pj) * dwv;
        sx += s * ex[k]!;
        sy += s * ey[k]!;
        sz += s * ez[k]!;
        diss += (pi - pj) * dwv;
      }
      const cend = cs[i + 1]!;
      if (cend > cs[i]!) {
        const rhoI = rho[i]!;
        const gx = apx[i]!;
        const gy = apy[i]!;
        const gz = apz[i]!;
        for (let k = cs[i]!; k < cend; k++) {
          const exk = cex[k]!;
          const eyk = cey[k]!;
          const ezk = cez[k]!;
          const face = -(gx * exk + gy * eyk + gz * ezk);
          const pw = pi + rhoI * cr[k]! * (face > 0 ? face : 0);
          const dwv = cdw[k]! * wallVol[cj[k]!]!;
          const s = (pi + pw) * dwv;
          sx += s * exk;
          sy += s * eyk;
          sz += s * ezk;
          diss += (pi - pw) * dwv;
        }
      }
      const rhoI = rho[i]!;
      const invRho = 1 / rhoI;
      drho[i] = diss * invRhoC * rhoI;
      // Velocity update and the second position half-step, fused (pair geometry is cached).
      const u = vx[i]! + (apx[i]! - sx * invRho) * dt;
      const v = vy[i]! + (apy[i]! - sy * invRho) * dt;
      const w = vz[i]! + (apz[i]! - sz * invRho) * dt;
      vx[i] = u;
      vy[i] = v;
      vz[i] = w;
      x[i] = x[i]! + u * halfDt;
      y[i] = y[i]! + v * halfDt;
      z[i] = z[i]! + w * halfDt;
    }
  }

  /**
   * Density relaxation (second half of an acoustic step of `dt` s), any dimension: pair divergence and
   * Riemann dissipation with the density update; then the velocity update and the maximum speed. (Its
   * position half-step is done at the end of `pressureRelaxation`.)
   */
  densityRelaxation(dt: number): void {
    const f = this.fluid;
    const { vx, vy, vz, ax, ay, az, rho, drho, vol, count } = f;
    const { rho0, c0 } = this.o;
    const halfDt = 0.5 * dt;
    const { start, j: nj, dw, ex, ey, ez } = this.inner;
    const cs = this.contact.start;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const cez = this.contact.ez;
    const wallVol = this.wall.vol;
    const wnx = this.wall.nx;
    const wny = this.wall.ny;
    const wnz = this.wall.nz;
    const rhoC = rho0 * c0;
    const limiterScale = 3 / c0;
    for (let i = 0; i < count; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const vzi = vz[i]!;
      let div = 0;
      let sx = 0;
      let sy = 0;
      let sz = 0;
      const end = start[i + 1]!;
      for (let k = start[i]!; k < end; k++) {
        const j = nj[k]!;
        const exk = ex[k]!;
        const eyk = ey[k]!;
        const ezk = ez[k]!;
        const dwv = dw[k]! * vol[j]!;
        const uj = (vxi - vx[j]!) * exk + (vyi - vy[j]!) * eyk + (vzi - vz[j]!) * ezk;
        div += uj * dwv;
        // Acoustic Riemann dissipation only in compression (uj < 0), limiter min(3·|uj|/c, 1); branch-free.
        const lim = Math.min(Math.max(-uj * limiterScale, 0), 1);
        const d = rhoC * uj * lim * dwv;
        sx += d * exk;
        sy += d * eyk;
        sz += d * ezk;
      }
      const cend = cs[i + 1]!;
      for (let k = cs[i]!; k < cend; k++) {
        const j = cj[k]!;
        const dwv = cdw[k]! * wallVol[j]!;
        div += 2 * (vxi * cex[k]! + vyi * cey[k]! + vzi * cez[k]!) * dwv;
        const nxk = wnx[j]!;
        const nyk = wny[j]!;
        const nzk = wnz[j]!;
        const uj = 2 * (vxi * nxk + vyi * nyk + vzi * nzk);
        if (uj < 0) {
          const lim = -uj * limiterScale;
          const d = rhoC * uj * (lim < 1 ? lim : 1) * dwv;
          sx += d * nxk;
          sy += d * nyk;
          sz += d * nzk;
        }
      }
      const rhoI = rho[i]!;
      const rate = drho[i]! + div * rhoI;
      drho[i] = rate;
      rho[i] = rhoI + rate * halfDt;
      const invRho = 1 / rhoI;
      ax[i] = sx * invRho;
      ay[i] = sy * invRho;
      az[i] = sz * invRho;
    }
    let vmax2 = 0;
    for (let i = 0; i < count; i++) {
      const u = vx[i]! + ax[i]! * dt;
      const v = vy[i]! + ay[i]! * dt;
      const w = vz[i]! + az[i]! * dt;
      vx[i] = u;
      vy[i] = v;
      vz[i] = w;
      const s = u * u + v * v + w * w;
      if (s > vmax2) vmax2 = s;
    }
    this.vmax2 = vmax2;
  }

  /**
   * 2D pressure relaxation fused into two passes (same arithmetic as `pressureRelaxation` without
   * z): half-step density, pressure, volume and position; then pair forces, velocity update and
   * the second half-step of position (positions are not read by the cached pair geometry).
   */
  pressureRelaxation2d(dt: number): void {
    const { x, y, vx, vy, apx, apy, rho, drho, p, mass, vol, count } = this.fluid;
    const { rho0, c0 } = this.o;
    const c2 = c0 * c0;
    const halfDt = 0.5 * dt;
    for (let i = 0; i < count; i++) {
      const r = rho[i]! + drho[i]! * halfDt;
      rho[i] = r;
      p[i] = c2 * (r - rho0);
      vol[i] = mass[i]! / r;
      x[i] = x[i]! + vx[i]! * halfDt;
      y[i] = y[i]! + vy[i]! * halfDt;
    }
    const { start, j: nj, dw, ex, ey } = this.inner;
    const cs = this.contact.start;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cr = this.contact.r;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const wallVol = this.wall.vol;
    const invRhoC = 1 / (rho0 * c0);
    for (let i = 0; i < count; i++) {
      const pi = p[i]!;
      let sx = 0;
      let sy = 0;
      let diss = 0;
      const end = start[i + 1]!;
      for (let k = start[i]!; k < end; k++) {
        const j = nj[k]!;
        const pj = p[j]!;
        const dwv = dw[k]! * vol[j]!;
        const s = (pi + pj) * dwv;
        sx += s * ex[k]!;
        sy += s * ey[k]!;
        diss += (pi - pj) * dwv;
      }
      const rhoI = rho[i]!;
      const gx = apx[i]!;
      const gy = apy[i]!;
      const cend = cs[i + 1]!;
      for (let k = cs[i]!; k < cend; k++) {
        const exk = cex[k]!;
        const eyk = cey[k]!;
        const face = -(gx * exk + gy * eyk);
        const pw = pi + rhoI * cr[k]! * (face > 0 ? face : 0);
        const dwv = cdw[k]! * wallVol[cj[k]!]!;
        const s = (pi + pw) * dwv;
        sx += s * exk;
        sy += s * eyk;
        diss += (pi - pw) * dwv;
      }
      const invRho = 1 / rhoI;
      drho[i] = diss * invRhoC * rhoI;
      const u = vx[i]! + (gx - sx * invRho) * dt;
      const v = vy[i]! + (gy - sy * invRho) * dt;
      vx[i] = u;
      vy[i] = v;
      x[i] = x[i]! + u * halfDt;
      y[i] = y[i]! + v * halfDt;
    }
  }

  /**
   * 2D density relaxation fused into two passes: pair divergence and Riemann dissipation with the
   * density update; then the velocity update and the maximum speed.
   */
  densityRelaxation2d(dt: number): void {
    const { vx, vy, ax, ay, rho, drho, vol, count } = this.fluid;
    const { rho0, c0 } = this.o;
    const halfDt = 0.5 * dt;
    const { start, j: nj, dw, ex, ey } = this.inner;
    const cs = this.contact.start;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const wallVol = this.wall.vol;
    const wnx = this.wall.nx;
    const wny = this.wall.ny;
    const rhoC = rho0 * c0;
    const limiterScale = 3 / c0;
    for (let i = 0; i < count; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      let div = 0;
      let sx = 0;
      let sy = 0;
      const end = start[i + 1]!;
      for (let k = start[i]!; k < end; k++) {
        const j = nj[k]!;
        const exk = ex[k]!;
        const eyk = ey[k]!;
        const dwv = dw[k]! * vol[j]!;
        const uj = (vxi - vx[j]!) * exk + (vyi - vy[j]!) * eyk;
        div += uj * dwv;
        // Branch-free limiter: zero unless compressing (uj < 0), capped at 1.
        const lim = Math.min(Math.max(-uj * limiterScale, 0), 1);
        const d = rhoC * uj * lim * dwv;
        sx += d * exk;
        sy += d * eyk;
      }
      const cend = cs[i + 1]!;
      for (let k = cs[i]!; k < cend; k++) {
        const j = cj[k]!;
        const dwv = cdw[k]! * wallVol[j]!;
        div += 2 * (vxi * cex[k]! + vyi * cey[k]!) * dwv;
        const nxk = wnx[j]!;
        const nyk = wny[j]!;
        const uj = 2 * (vxi * nxk + vyi * nyk);
        if (uj < 0) {
          const lim = -uj * limiterScale;
          const d = rhoC * uj * (lim < 1 ? lim : 1) * dwv;
          sx += d * nxk;
          sy += d * nyk;
        }
      }
      const rhoI = rho[i]!;
      const rate = drho[i]! + div * rhoI;
      drho[i] = rate;
      rho[i] = rhoI + rate * halfDt;
      const invRho = 1 / rhoI;
      ax[i] = sx * invRho;
      ay[i] = sy * invRho;
    }
    let vmax2 = 0;
    for (let i = 0; i < count; i++) {
      const u = vx[i]! + ax[i]! * dt;
      const v = vy[i]! + ay[i]! * dt;
      vx[i] = u;
      vy[i] = v;
      const s = u * u + v * v;
      if (s > vmax2) vmax2 = s;
    }
    this.vmax2 = vmax2;
  }

  /**
   * One advection step: neighbour rebuild, density summation, viscous and body forces, then inner
   * acoustic steps until the advection step (s) is covered or `endTime` (s) is reached.
   * Returns the number of acoustic steps taken.
   */
  advectionStep(endTime = Infinity): number {
    this.updateNeighbours();
    this.densitySummation();
    this.vmax2 = this.maxSpeed2();
    this.viscousAndBodyForce();
    this.transportVelocityCorrection();
    // As in the SPHinXsys cases, the last acoustic step is not shortened to land exactly on the advection
    // step (it may overshoot it by less than one acoustic step); only the end time is hit exactly.
    const remaining = endTime - this.counters.time;
    const big = Math.min(this.advectionTimeStep(), remaining);
    let elapsed = 0;
    let steps = 0;
    const is2d = this.o.dim === 2;
    while (elapsed < big - 1e-12 * big) {
      const dt = Math.min(this.acousticTimeStep(), remaining - elapsed);
      if (is2d) {
        this.pressureRelaxation2d(dt);
        this.densityRelaxation2d(dt);
      } else {
        this.pressureRelaxation(dt);
        this.densityRelaxation(dt);
      }
      elapsed += dt;
      steps++;
    }
    this.counters.time += elapsed;
    this.counters.advectionSteps++;
    this.counters.acousticSteps += steps;
    return steps;
  }

  /** Runs to simulated time `endTime` (s), calling `onAdvection` after every advection step. */
  run(endTime: number, onAdvection?: (counters: FluidCounters) => void): void {
    while (this.counters.time < endTime * (1 - 1e-12)) {
      this.advectionStep(endTime);
      onAdvection?.(this.counters);
    }
  }
}
