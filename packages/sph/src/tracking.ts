import { CellLinkedList, type Domain } from './cellList';
import type { WeaklyCompressibleFluid } from './fluid';
import type { WendlandC2 } from './kernel';
import type { OutputSource } from './output';
import type { ParticleArrays } from './particles';

/** Drag law of inertial particles. */
export type DragLaw = 'stokes' | 'schiller_naumann';

/** Settings of a set of tracked particles (SI units). */
export interface TrackingOptions {
  /**
   * 'passive': the particles move with the local fluid velocity (tracers). 'inertial': they have a diameter and a
   * density and are accelerated by drag towards the fluid velocity (and by buoyancy-corrected gravity).
   */
  mode: 'passive' | 'inertial';
  /** Particle diameter d, m. */
  diameter: number;
  /** Particle density ρ_p, kg/m³ (inertial particles). */
  density?: number;
  /** Drag law (default 'schiller_naumann'; it reduces to Stokes drag at small particle Reynolds numbers). */
  drag?: DragLaw;
  /** Gravity acting on inertial particles, m/s² (default none); buoyancy scales it by 1 − ρ_f/ρ_p. */
  gravity?: readonly [number, number, number];
  /**
   * Particle sets that capture a particle on contact, e.g. the walls or a device: a particle is captured (and stops)
   * once its centre comes within d/2 + dp/2 of any of their particles. They may move (solids).
   */
  capture?: readonly ParticleArrays[];
}

/**
 * Lagrangian tracking of particles in the flow of a `WeaklyCompressibleFluid` (the product's "particle"
 * simulations). The fluid velocity at a particle is the Shepard-normalised SPH interpolation
 * u(x) = Σ_j u_j W(x − x_j) V_j / Σ_j W(x − x_j) V_j over fluid and wall particles (walls at their velocity, zero
 * for static walls, so the interpolation respects no-slip).
 *
 * Inertial particles follow dv/dt = f(Re_p)(u − v)/τ_p + (1 − ρ_f/ρ_p) g with the Stokes relaxation time
 * τ_p = ρ_p d² / (18 μ) and the drag factor f = 1 (Stokes) or f = 1 + 0.15 Re_p^0.687 (Schiller–Naumann, Re_p < 1000;
 * 0.0183 Re_p above), Re_p = ρ_f |u − v| d / μ. Over a step, u, f and g are held and the equation is integrated
 * exactly (exponential relaxation), so a step may be much longer than τ_p. The particles do not act on the fluid
 * (one-way coupling).
 */
export class ParticleTracker {
  /** Tracked particles (position, velocity). */
  readonly particles: ParticleArrays;
  /** 1 once captured, else 0. */
  readonly captured: Float64Array;
  /** Time of capture, s (−1 while free). */
  readonly captureTime: Float64Array;
  /** Index of the capture set (`TrackingOptions.capture`) that captured each particle (−1 while free). */
  readonly capturedBy: Int32Array;
  /** Stokes relaxation time τ_p, s (0 for passive particles). */
  readonly relaxationTime: number;
  private readonly fluid: WeaklyCompressibleFluid;
  private readonly o: TrackingOptions;
  private readonly kernel: WendlandC2;
  private readonly fluidCells: CellLinkedList;
  private readonly wallCells: CellLinkedList;
  private readonly captureCells: CellLinkedList[];
  private readonly diameters: Float64Array;
  private time = 0;

  /** Tracks `particles` (positions and initial velocities set) in `fluid`; validates the settings. */
  constructor(fluid: WeaklyCompressibleFluid, particles: ParticleArrays, options: TrackingOptions) {
    if (!(options.diameter > 0)) throw new RangeError('particle diameter must be positive');
    const fo = fluid.options;
    if (options.mode === 'inertial') {
      if (!(options.density !== undefined && options.density > 0)) {
        throw new RangeError('inertial particles need a positive density');
      }
      if (!(fo.mu > 0)) throw new RangeError('inertial particles need a viscous fluid (mu > 0) for their drag');
    }
    this.fluid = fluid;
    this.particles = particles;
    this.o = options;
    this.kernel = fluid.kernel;
    this.relaxationTime =
      options.mode === 'inertial' ? ((options.density ?? 0) * options.diameter ** 2) / (18 * fo.mu) : 0;
    this.captured = new Float64Array(particles.capacity);
    this.captureTime = new Float64Array(particles.capacity).fill(-1);
    this.capturedBy = new Int32Array(particles.capacity).fill(-1);
    this.diameters = new Float64Array(particles.capacity).fill(options.diameter);
    const cell = (capacity: number): CellLinkedList =>
      new CellLinkedList(fo.domain, this.kernel.cutoff, Math.max(1, capacity), fo.dim);
    this.fluidCells = cell(fluid.fluid.capacity);
    this.wallCells = cell(fluid.wall.capacity);
    this.wallCells.rebuild(fluid.wall);
    this.captureCells = (options.capture ?? []).map((set) => cell(set.capacity));
    this.time = fluid.counters.time;
  }

  /** Simulated time of the tracker (the fluid's time at set-up plus every `advance`), s. */
  get currentTime(): number {
    return this.time;
  }

  /** Number of capture sets (`TrackingOptions.capture`). */
  get captureSetCount(): number {
    return this.o.capture?.length ?? 0;
  }

  /** Number of captured particles. */
  capturedCount(): number {
    let n = 0;
    for (let i = 0; i < this.particles.count; i++) n += this.captured[i]!;
    return n;
  }

  /**
   * Fluid velocity at (x, y, z) m by Shepard interpolation, written to `out` (m/s). Returns false (and zero) when no
   * fluid or wall particle is within the kernel support. The fluid cell list must be current (`advance` rebuilds it).
   */
  sampleVelocity(x: number, y: number, z: number, out: [number, number, number]): boolean {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    let den = 0;
    den += this.accumulate(this.fluid.fluid, this.fluidCells, x, y, z, out, true);
    den += this.accumulate(this.fluid.wall, this.wallCells, x, y, z, out, false);
    if (den === 0) return false;
    out[0] /= den;
    out[1] /= den;
    out[2] /= den;
    return true;
  }

  /** Adds Σ u_j W V_j of `set` near (x, y, z) to `out`; returns Σ W V_j. Walls are static (u = 0). */
  private accumulate(
    set: ParticleArrays,
    cells: CellLinkedList,
    x: number,
    y: number,
    z: number,
    out: [number, number, number],
    moving: boolean,
  ): number {
    let den = 0;
    this.forNeighbours(set, cells, x, y, z, this.kernel.cutoff, (j, r) => {
      const wv = this.kernel.w(r) * set.vol[j]!;
      den += wv;
      if (moving) {
        out[0] += set.vx[j]! * wv;
        out[1] += set.vy[j]! * wv;
        out[2] += set.vz[j]! * wv;
      }
    });
    return den;
  }

  /** Calls `visit(j, r)` for the particles j of `set` (sorted into `cells`) within `radius` of (x, y, z). */
  private forNeighbours(
    set: ParticleArrays,
    cells: CellLinkedList,
    x: number,
    y: number,
    z: number,
    radius: number,
    visit: (j: number, r: number) => void,
  ): void {
    if (set.count === 0) return;
    const d = cells.domain;
    const reach = [1, 1, cells.nz > 1 ? 1 : 0].map((n, a) =>
      Math.max(n, Math.ceil(radius / [cells.sx, cells.sy, cells.sz][a]!)),
    ) as [number, number, number];
    const cx = cells.cellX(x);
    const cy = cells.cellY(y);
    const cz = cells.cellZ(z);
    const n = [cells.nx, cells.ny, cells.nz];
    const r2max = radius * radius;
    for (let dz = -reach[2]; dz <= reach[2]; dz++) {
      const kz = wrapCell(cz + dz, n[2]!, d.periodic[2]);
      if (kz < 0) continue;
      for (let dy = -reach[1]; dy <= reach[1]; dy++) {
        const ky = wrapCell(cy + dy, n[1]!, d.periodic[1]);
        if (ky < 0) continue;
        for (let dx = -reach[0]; dx <= reach[0]; dx++) {
          const kx = wrapCell(cx + dx, n[0]!, d.periodic[0]);
          if (kx < 0) continue;
          for (let j = cells.head[kx + n[0]! * (ky + n[1]! * kz)]!; j >= 0; j = cells.next[j]!) {
            const rx = minimumImage(x - set.x[j]!, d, 0);
            const ry = minimumImage(y - set.y[j]!, d, 1);
            const rz = minimumImage(z - set.z[j]!, d, 2);
            const r2 = rx * rx + ry * ry + rz * rz;
            if (r2 < r2max) visit(j, Math.sqrt(r2));
          }
        }
      }
    }
  }

  /** Whether (x, y, z) lies within `radius` of a particle of a capture set. */
  /** The first capture set with a particle within `radius` of the point, or −1. */
  private touches(x: number, y: number, z: number, radius: number): number {
    const sets = this.o.capture ?? [];
    for (let s = 0; s < sets.length; s++) {
      let hit = false;
      this.forNeighbours(sets[s]!, this.captureCells[s]!, x, y, z, radius, () => {
        hit = true;
      });
      if (hit) return s;
    }
    return -1;
  }

  /**
   * Moves the free particles over `dt` s in the current fluid field (call after each fluid step with its length),
   * then captures those that touch a capture set.
   */
  advance(dt: number): void {
    const fluid = this.fluid;
    this.fluidCells.rebuild(fluid.fluid);
    (this.o.capture ?? []).forEach((set, s) => this.captureCells[s]!.rebuild(set));
    const { x, y, z, vx, vy, vz, count } = this.particles;
    const fo = fluid.options;
    const u: [number, number, number] = [0, 0, 0];
    const inertial = this.o.mode === 'inertial';
    const rhoP = this.o.density ?? 1;
    const [gx, gy, gz] = this.o.gravity ?? [0, 0, 0];
    const buoyancy = 1 - fo.rho0 / rhoP;
    const d = this.o.diameter;
    const reach = 0.5 * d + 0.5 * fo.dp;
    this.time += dt;
    for (let i = 0; i < count; i++) {
      if (this.captured[i] === 1) continue;
      this.sampleVelocity(x[i]!, y[i]!, z[i]!, u);
      if (!inertial) {
        vx[i] = u[0];
        vy[i] = u[1];
        vz[i] = u[2];
        x[i] = x[i]! + u[0] * dt;
        y[i] = y[i]! + u[1] * dt;
        z[i] = z[i]! + u[2] * dt;
      } else {
        const slip = Math.hypot(u[0] - vx[i]!, u[1] - vy[i]!, u[2] - vz[i]!);
        const tau = this.relaxationTime / this.dragFactor((fo.rho0 * slip * d) / fo.mu);
        const decay = Math.exp(-dt / tau);
        const growth = tau * (1 - decay);
        // v(t) = u + aτ + w₀ e^(−t/τ), x(t) = x₀ + (u + aτ) t + w₀ τ (1 − e^(−t/τ)), w₀ = v₀ − u − aτ.
        const step = (xa: Float64Array, va: Float64Array, ua: number, g: number): void => {
          const terminal = ua + buoyancy * g * tau;
          const w0 = va[i]! - terminal;
          xa[i] = xa[i]! + terminal * dt + w0 * growth;
          va[i] = terminal + w0 * decay;
        };
        step(x, vx, u[0], gx);
        step(y, vy, u[1], gy);
        step(z, vz, u[2], gz);
      }
      this.wrap(i);
      const by = this.touches(x[i]!, y[i]!, z[i]!, reach);
      if (by >= 0) {
        this.captured[i] = 1;
        this.captureTime[i] = this.time;
        this.capturedBy[i] = by;
        vx[i] = 0;
        vy[i] = 0;
        vz[i] = 0;
      }
    }
  }

  /** Drag factor f(Re_p) of the drag law. */
  private dragFactor(re: number): number {
    if (this.o.drag === 'stokes') return 1;
    return re < 1000 ? 1 + 0.15 * re ** 0.687 : 0.0183 * re;
  }

  /** Wraps particle i into the fluid domain on periodic axes. */
  private wrap(i: number): void {
    const d = this.fluid.options.domain;
    const arrays = [this.particles.x, this.particles.y, this.particles.z];
    for (let a = 0; a < 3; a++) {
      if (!d.periodic[a]) continue;
      const lo = d.lower[a]!;
      const len = d.upper[a]! - lo;
      const v = arrays[a]!;
      v[i] = v[i]! - Math.floor((v[i]! - lo) / len) * len;
    }
  }

  /** Output fields (SI): position, velocity, particle size (diameter) and captured (0/1). */
  output(): OutputSource {
    const p = this.particles;
    return {
      dim: p.dim,
      count: p.count,
      id: p.id,
      fields: {
        position: [p.x, p.y, p.z],
        velocity: [p.vx, p.vy, p.vz],
        particle_size: [this.diameters],
        captured: [this.captured],
      },
    };
  }
}

/** Cell index along an axis of `n` cells, wrapped if periodic; −1 outside a non-periodic axis. */
function wrapCell(c: number, n: number, periodic: boolean): number {
  if (c >= 0 && c < n) return c;
  if (!periodic) return -1;
  return ((c % n) + n) % n;
}

/** Minimum-image component of a separation along axis `a` of `d`. */
function minimumImage(r: number, d: Domain, a: 0 | 1 | 2): number {
  if (!d.periodic[a]) return r;
  const len = d.upper[a] - d.lower[a];
  return r > 0.5 * len ? r - len : r < -0.5 * len ? r + len : r;
}
