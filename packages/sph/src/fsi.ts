import { WeaklyCompressibleFluid, type FluidOptions } from './fluid';
import { invert3 } from './mat3';
import { NeighbourList, buildNeighbours } from './neighbours';
import { ParticleArrays } from './particles';
import { runAsync, runSync, type RunOptions, type RunStatus } from './run';
import type { ElasticSolid } from './solid';

/** Counters of a coupled simulation so far. */
export interface FsiCounters {
  /** Simulated time, s. */
  time: number;
  /** Fluid advection steps. */
  advectionSteps: number;
  /** Fluid acoustic steps. */
  acousticSteps: number;
  /** Solid time steps (summed over the solids). */
  solidSteps: number;
}

/**
 * Fluid–structure interaction after SPHinXsys (Zhang, Rezavand & Hu, JCP 2021, "A multi-resolution SPH method for
 * fluid–structure interactions"): every solid particle is also a wall particle of the fluid, carrying the solid's
 * velocity and acceleration averaged over the fluid's acoustic step and its current surface normal, so the fluid
 * sees a moving no-slip wall. The solid feels the exact reaction of the fluid's wall forces:
 * - pressure, every acoustic step: f_i = −Σ_j V_i V_j (p_j + p_w) dW_ij e_ij − Σ_j V_i V_j ρ₀c₀ u_ij min(−3u_ij/c₀, 1)
 *   dW_ij n_i (the second term only for u_ij = 2 (v_j − v_w,i)·n_i < 0), p_w = p_j + ρ_j r_ij max(0, (a_j − a_w,i)·e_ij);
 * - viscosity, every advection step: f_i = −4μ V_i V_j dW_ij (v_j − v_w,i) / (r_ij + 0.01 h);
 * with e_ij from fluid particle j to solid particle i and the fluid's (normalised) kernel gradient, so momentum is
 * exchanged in equal and opposite amounts. Within each fluid acoustic step of dt the solid is sub-cycled with its own
 * acoustic steps under these forces; then the wall copy is updated: position, average velocity Δx/dt, average
 * acceleration Δv/dt and normal n = F⁻ᵀn⁰/|F⁻ᵀn⁰| (n⁰ from the reference configuration).
 */
export class FluidStructureInteraction {
  /** The fluid; its wall holds the static wall particles followed by every solid's particles. */
  readonly fluid: WeaklyCompressibleFluid;
  /** The coupled solids. */
  readonly solids: readonly ElasticSolid[];
  /** Counters. */
  readonly counters: FsiCounters = { time: 0, advectionSteps: 0, acousticSteps: 0, solidSteps: 0 };
  /** Index in the fluid's wall of each solid's first particle. */
  private readonly offsets: number[];
  /** Per solid: reference outward normals n⁰, 3 per particle. */
  private readonly normals0: Float64Array[];
  /** Per solid: neighbour lists of its particles among the fluid particles (rebuilt every advection step). */
  private readonly lists: NeighbourList[];
  /** Per solid: viscous force of the current advection step, N (N/m in 2D), 3 per particle. */
  private readonly viscous: Float64Array[];
  /** Per solid: pressure force of the last acoustic step, N (N/m in 2D), 3 per particle. */
  private readonly pressure: Float64Array[];
  private readonly scratch = new Float64Array(9);

  /**
   * Couples `solids` to a fluid of `fluidParticles` inside `staticWall` (particles with `vol` and normals; may be
   * empty). The fluid is built here from `options` with moving walls.
   */
  constructor(
    fluidParticles: ParticleArrays,
    staticWall: ParticleArrays,
    solids: readonly ElasticSolid[],
    options: Omit<FluidOptions, 'movingWall'>,
  ) {
    const dim = options.dim;
    const total = staticWall.count + solids.reduce((n, s) => n + s.particles.count, 0);
    const wall = new ParticleArrays(dim, Math.max(1, total));
    const fields = ['x', 'y', 'z', 'vol', 'rho', 'mass', 'nx', 'ny', 'nz'] as const;
    for (let i = 0; i < staticWall.count; i++) {
      const k = wall.add(staticWall.x[i]!, staticWall.y[i]!, staticWall.z[i]!, staticWall.vol[i]!, staticWall.rho[i]!);
      for (const f of fields) wall[f][k] = staticWall[f][i]!;
    }
    this.solids = solids;
    this.offsets = [];
    this.normals0 = [];
    this.lists = [];
    this.viscous = [];
    this.pressure = [];
    for (const solid of solids) {
      const p = solid.particles;
      this.offsets.push(wall.count);
      for (let i = 0; i < p.count; i++) wall.add(p.x[i]!, p.y[i]!, p.z[i]!, p.vol[i]!, p.rho[i]!);
      this.normals0.push(solid.surfaceNormals());
      this.lists.push(new NeighbourList(p.count, Math.max(1, p.count * (dim === 2 ? 32 : 96))));
      this.viscous.push(new Float64Array(3 * p.count));
      this.pressure.push(new Float64Array(3 * p.count));
    }
    this.fluid = new WeaklyCompressibleFluid(fluidParticles, wall, { ...options, movingWall: true });
    for (let s = 0; s < solids.length; s++) this.updateWall(s, 0);
  }

  /** Threads the fluid and solid passes run on (1 without pools). */
  get threads(): number {
    return this.fluid.threads;
  }

  /**
   * Runs the fluid's and the solids' passes on one pool of `threads` threads (the calling thread and `threads − 1`
   * workers; `threads` ≤ 1 stops it): the solids' passes, attached to the fluid's pool, run inside the fluid's
   * acoustic hook, never at the same time as a fluid pass. Results are bit-identical for any thread count; the
   * coupling terms stay on the calling thread. Call `stopThreads` when done.
   */
  async startThreads(threads: number, spin?: number): Promise<void> {
    await this.stopThreads();
    await this.fluid.startThreads(threads, spin);
    const pool = this.fluid.workerPool;
    if (pool) for (const solid of this.solids) solid.useThreads(pool);
  }

  /** Stops the pool; later steps run on the calling thread. */
  async stopThreads(): Promise<void> {
    for (const solid of this.solids) await solid.stopThreads();
    await this.fluid.stopThreads();
  }

  /** Total force of the fluid on solid `s` (pressure of the last acoustic step plus viscosity), N (N/m in 2D). */
  fluidForce(s: number): [number, number, number] {
    const out: [number, number, number] = [0, 0, 0];
    const pf = this.pressure[s]!;
    const vf = this.viscous[s]!;
    for (let i = 0; i < this.solids[s]!.particles.count; i++) {
      for (let a = 0; a < 3; a++) out[a] = out[a]! + pf[3 * i + a]! + vf[3 * i + a]!;
    }
    return out;
  }

  /** One fluid advection step towards `endTime` (s), with the solids sub-cycled in every acoustic step. */
  advectionStep(endTime = Infinity): void {
    const steps = this.fluid.advectionStep(endTime, {
      forcesReady: () => {
        for (let s = 0; s < this.solids.length; s++) this.viscousForce(s);
      },
      acoustic: (dt) => {
        for (let s = 0; s < this.solids.length; s++) {
          this.pressureForce(s);
          this.advanceSolid(s, dt);
          this.updateWall(s, dt);
        }
      },
    });
    this.counters.time = this.fluid.counters.time;
    this.counters.advectionSteps++;
    this.counters.acousticSteps += steps;
  }

  /** Runs to `endTime` (s), calling `onAdvection` after every advection step. */
  run(endTime: number, onAdvection?: (counters: FsiCounters) => void): void {
    runSync(this, endTime, onAdvection);
  }

  /** One advection step towards `endTime` (s); the step of `runAsync`. */
  step(endTime: number): void {
    this.advectionStep(endTime);
  }

  /** Runs to `endTime` (s) with progress and cancellation (see `run.ts`). */
  runAsync(endTime: number, options: RunOptions<FsiCounters> = {}): Promise<RunStatus> {
    return runAsync(this, endTime, options);
  }

  /** Rebuilds solid `s`'s fluid neighbours and its viscous force for this advection step. */
  private viscousForce(s: number): void {
    const solid = this.solids[s]!;
    const list = this.lists[s]!;
    const fluid = this.fluid;
    buildNeighbours(solid.particles, fluid.fluid, fluid.cells, fluid.kernel, false, list, fluid.gradientScale);
    const out = this.viscous[s]!;
    out.fill(0);
    const mu = fluid.options.mu;
    if (mu === 0) return;
    const { vx, vy, vz, vol } = fluid.fluid;
    const wall = fluid.wall;
    const eps = 0.01 * fluid.h;
    const { start, end, j: nj, dw, r } = list;
    const o = this.offsets[s]!;
    const sv = solid.particles.vol;
    for (let i = 0; i < solid.particles.count; i++) {
      const w = o + i;
      let fx = 0;
      let fy = 0;
      let fz = 0;
      for (let k = start[i]!; k < end[i]!; k++) {
        const j = nj[k]!;
        const c = (-4 * mu * sv[i]! * vol[j]! * dw[k]!) / (r[k]! + eps);
        fx += c * (vx[j]! - wall.vx[w]!);
        fy += c * (vy[j]! - wall.vy[w]!);
        fz += c * (vz[j]! - wall.vz[w]!);
      }
      out[3 * i] = fx;
      out[3 * i + 1] = fy;
      out[3 * i + 2] = fz;
    }
  }

  /** Pressure (and Riemann dissipation) force of the fluid on solid `s`: the reaction of the fluid's wall terms. */
  private pressureForce(s: number): void {
    const solid = this.solids[s]!;
    const fluid = this.fluid;
    const { vx, vy, vz, apx, apy, apz, p, mass, vol } = fluid.fluid;
    const wall = fluid.wall;
    const { rho0, c0 } = fluid.options;
    const rhoC = rho0 * c0;
    const limiterScale = 3 / c0;
    const { start, end, j: nj, dw, r, ex, ey, ez } = this.lists[s]!;
    const o = this.offsets[s]!;
    const sv = solid.particles.vol;
    const out = this.pressure[s]!;
    for (let i = 0; i < solid.particles.count; i++) {
      const w = o + i;
      const nx = wall.nx[w]!;
      const ny = wall.ny[w]!;
      const nz = wall.nz[w]!;
      let fx = 0;
      let fy = 0;
      let fz = 0;
      for (let k = start[i]!; k < end[i]!; k++) {
        const j = nj[k]!;
        const exk = ex[k]!;
        const eyk = ey[k]!;
        const ezk = ez[k]!;
        // The fluid's half-step density is m/V (its pressure and volume are from the pressure half-step).
        const rhoJ = mass[j]! / vol[j]!;
        const face = (apx[j]! - wall.ax[w]!) * exk + (apy[j]! - wall.ay[w]!) * eyk + (apz[j]! - wall.az[w]!) * ezk;
        const pw = p[j]! + rhoJ * r[k]! * (face > 0 ? face : 0);
        const c = -sv[i]! * vol[j]! * dw[k]!;
        const f = c * (p[j]! + pw);
        fx += f * exk;
        fy += f * eyk;
        fz += f * ezk;
        const u = 2 * ((vx[j]! - wall.vx[w]!) * nx + (vy[j]! - wall.vy[w]!) * ny + (vz[j]! - wall.vz[w]!) * nz);
        if (u < 0) {
          const d = c * rhoC * u * Math.min(-u * limiterScale, 1);
          fx += d * nx;
          fy += d * ny;
          fz += d * nz;
        }
      }
      out[3 * i] = fx;
      out[3 * i + 1] = fy;
      out[3 * i + 2] = fz;
    }
  }

  /** Sub-cycles solid `s` over the fluid's acoustic step `dt` (s) under the fluid forces. */
  private advanceSolid(s: number, dt: number): void {
    const solid = this.solids[s]!;
    const { apx, apy, apz, mass, count } = solid.particles;
    const pf = this.pressure[s]!;
    const vf = this.viscous[s]!;
    for (let i = 0; i < count; i++) {
      apx[i] = (pf[3 * i]! + vf[3 * i]!) / mass[i]!;
      apy[i] = (pf[3 * i + 1]! + vf[3 * i + 1]!) / mass[i]!;
      apz[i] = (pf[3 * i + 2]! + vf[3 * i + 2]!) / mass[i]!;
    }
    let elapsed = 0;
    while (elapsed < dt * (1 - 1e-12)) {
      const h = Math.min(solid.timeStep(), dt - elapsed);
      solid.advance(h);
      elapsed += h;
      this.counters.solidSteps++;
    }
  }

  /**
   * Copies solid `s` into the fluid's wall: positions, the velocity averaged over the step `dt` (s) and the change
   * of that average (the wall acceleration), and normals rotated and stretched by F. `dt` = 0 initialises.
   */
  private updateWall(s: number, dt: number): void {
    const solid = this.solids[s]!;
    const p = solid.particles;
    const wall = this.fluid.wall;
    const o = this.offsets[s]!;
    const n0 = this.normals0[s]!;
    const F = solid.F;
    const m = this.scratch;
    for (let i = 0; i < p.count; i++) {
      const w = o + i;
      trackAxis(p.x, p.vx, wall.x, wall.vx, wall.ax, i, w, dt);
      trackAxis(p.y, p.vy, wall.y, wall.vy, wall.ay, i, w, dt);
      trackAxis(p.z, p.vz, wall.z, wall.vz, wall.az, i, w, dt);
      // n = F⁻ᵀ n⁰, normalised (zero for interior particles, whose n⁰ is zero).
      if (invert3(F, 9 * i, m, 0) === 0) continue;
      const [a, b, c] = [n0[3 * i]!, n0[3 * i + 1]!, n0[3 * i + 2]!];
      const nx = m[0]! * a + m[3]! * b + m[6]! * c;
      const ny = m[1]! * a + m[4]! * b + m[7]! * c;
      const nz = m[2]! * a + m[5]! * b + m[8]! * c;
      const len = Math.hypot(nx, ny, nz);
      const inv = len > 0 ? 1 / len : 0;
      wall.nx[w] = nx * inv;
      wall.ny[w] = ny * inv;
      wall.nz[w] = nz * inv;
    }
  }
}

/**
 * One axis of a wall particle `w` following solid particle `i` over a step of `dt` s: average velocity
 * (x_new − x_old)/dt, acceleration (v_new − v_old)/dt, new position (`dt` = 0: the solid's velocity, no acceleration).
 */
function trackAxis(
  xs: Float64Array,
  vs: Float64Array,
  xw: Float64Array,
  vw: Float64Array,
  aw: Float64Array,
  i: number,
  w: number,
  dt: number,
): void {
  const v = dt > 0 ? (xs[i]! - xw[w]!) / dt : vs[i]!;
  aw[w] = dt > 0 ? (v - vw[w]!) / dt : 0;
  vw[w] = v;
  xw[w] = xs[i]!;
}
