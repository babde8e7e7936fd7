import type { CellLinkedList, Domain } from './cellList';
import { WendlandC2, smoothingLength } from './kernel';
import { buildNeighbours, type NeighbourList } from './neighbours';
import {
  SHARED_HEAP,
  sharedRegion,
  viewFloat64,
  type Dimension,
  type ParticleArrays,
  type SharedAllocator,
  type SharedBuffers,
  type SharedRegion,
} from './particles';
import { apparentViscosity, type ViscosityModel } from './viscosity';
import type { FluidKernels, WasmMemory } from './wasmKernels';

/** The resolved settings the particle passes need (SI units; a plain object, so it can go to a worker). */
export interface PassSettings {
  /** Spatial dimension. */
  dim: Dimension;
  /** Initial particle spacing, m. */
  dp: number;
  /** Reference density ρ₀, kg/m³. */
  rho0: number;
  /** Artificial sound speed c₀, m/s. */
  c0: number;
  /** Dynamic viscosity μ, Pa·s. */
  mu: number;
  /** Body-force acceleration, m/s². */
  gravity: readonly [number, number, number];
  /** Free-surface density summation. */
  freeSurface: boolean;
  /** Transport-velocity correction coefficient (× h²; 0 = off). */
  transportCorrection: number;
  /**
   * Tensile-instability control (Sun et al. 2018): a particle under tension (p_i < 0) takes p_j − p_i instead of
   * p_i + p_j in its pair pressure forces, so negative pressures do not pull particles into clumps
   * (docs/decisions/sph-diastole-tensile-control.md). Internal flows only (`FluidOptions.tensileControl`).
   */
  tensileControl?: boolean;
  /** Shear-rate-dependent viscosity (absent or null: Newtonian with `mu`). */
  viscosity?: ViscosityModel | null;
  /** Domain (for periodic wrapping), m. */
  domain: Domain;
  /**
   * The shared scratch buffers of the acoustic step (`FluidPasses.scratchBuffers`), so that every thread views
   * the same ones; filled in by the first `FluidPasses` built over these settings when absent.
   */
  scratch?: SharedBuffers;
}

/**
 * The per-particle passes of the weakly compressible fluid, each over a particle range `[i0, i1)`. Every pass
 * writes only the fields of the particles in its range and reads neighbours' fields that no pass running at
 * the same time writes, so the ranges of different threads can run concurrently. The arithmetic of a particle
 * does not depend on the range it falls in: results are bit-identical for any split (see
 * docs/decisions/sph-threads.md). The same class runs on the main thread and in the workers.
 */
export class FluidPasses {
  /** Fluid particles. */
  readonly fluid: ParticleArrays;
  /** Static wall particles. */
  readonly wall: ParticleArrays;
  /** Fluid–fluid neighbour lists. */
  readonly inner: NeighbourList;
  /** Fluid–wall neighbour lists. */
  readonly contact: NeighbourList;
  /** Settings. */
  readonly s: PassSettings;
  /** Smoothing length, m. */
  readonly h: number;
  /** Kernel. */
  readonly kernel: WendlandC2;
  /** Lattice number density σ₀, 1/m² (2D) or 1/m³ (3D). */
  readonly sigma0: number;
  /** W(0), 1/m² (2D) or 1/m³ (3D). */
  readonly w0: number;
  /** 1 / lattice gradient moment (see docs/decisions/sph-lattice-gradient-normalisation.md). */
  readonly gradientScale: number;
  /** Cell list of the fluid (rebuilt by the main thread before `buildNeighbours`). */
  readonly cells: CellLinkedList;
  /** Cell list of the wall (built once). */
  readonly wallCells: CellLinkedList;
  /** Half-step density of the current acoustic step (scratch, per fluid particle), kg/m³. */
  readonly rhoHalf: Float64Array;
  /** Pressure (dissipation) part of dρ/dt of the current acoustic step (scratch), kg/(m³·s). */
  readonly drhoHalf: Float64Array;
  /** Velocity at the end of the current acoustic step (scratch until `commitVelocity`), m/s. */
  readonly vxNext: Float64Array;
  readonly vyNext: Float64Array;
  readonly vzNext: Float64Array;
  /** Per-particle viscosity of the current advection step with a `viscosity` model (scratch), Pa·s. */
  readonly mu: Float64Array;
  /** Per-particle shear rate γ̇ = √(2 D:D) of the current advection step with a `viscosity` model (scratch), 1/s. */
  readonly shearRate: Float64Array;

  /** Passes over the given storage (shared with other threads). */
  constructor(
    fluid: ParticleArrays,
    wall: ParticleArrays,
    inner: NeighbourList,
    contact: NeighbourList,
    cells: CellLinkedList,
    wallCells: CellLinkedList,
    settings: PassSettings,
  ) {
    this.fluid = fluid;
    this.wall = wall;
    this.inner = inner;
    this.contact = contact;
    this.cells = cells;
    this.wallCells = wallCells;
    const scratch = settings.scratch ?? FluidPasses.scratchBuffers(fluid.capacity);
    this.s = { ...settings, scratch };
    const n = fluid.capacity;
    this.rhoHalf = viewFloat64(scratch, 'rhoHalf', n);
    this.drhoHalf = viewFloat64(scratch, 'drhoHalf', n);
    this.vxNext = viewFloat64(scratch, 'vxNext', n);
    this.vyNext = viewFloat64(scratch, 'vyNext', n);
    this.vzNext = viewFloat64(scratch, 'vzNext', n);
    this.mu = viewFloat64(scratch, 'mu', n);
    this.shearRate = viewFloat64(scratch, 'shearRate', n);
    this.h = smoothingLength(settings.dp);
    this.kernel = new WendlandC2(this.h, settings.dim);
    this.sigma0 = this.kernel.latticeNumberDensity(settings.dp);
    this.w0 = this.kernel.w(0);
    this.gradientScale = 1 / this.kernel.latticeGradientMoment(settings.dp);
  }

  /** New shared scratch buffers for `capacity` fluid particles from `alloc` (see `PassSettings.scratch`). */
  static scratchBuffers(capacity: number, alloc: SharedAllocator = SHARED_HEAP): Record<string, SharedRegion> {
    const out: Record<string, SharedRegion> = {};
    for (const name of ['rhoHalf', 'drhoHalf', 'vxNext', 'vyNext', 'vzNext', 'mu', 'shearRate']) {
      out[name] = sharedRegion(alloc.f64(capacity));
    }
    return out;
  }

  /**
   * The WebAssembly kernels that run the neighbour build, the density summation, the pressure forces and the density
   * relaxation (null: the TypeScript passes of this class, the reference). Every array they read must lie in the kernels' memory (`arena.ts`).
   */
  private wasm: FluidKernels | null = null;
  /** The shared memory the kernels run over (null: TypeScript backend). */
  wasmMemory: WasmMemory | null = null;

  /**
   * Runs the hot passes on WebAssembly `kernels` instantiated over `memory`, which must hold every array of these
   * passes (`arena.ts`), or on TypeScript (null).
   */
  useWasm(kernels: FluidKernels | null, memory: WasmMemory | null = null): void {
    // Each instance (one per thread) reads and writes the lists' cached pair data in their precision.
    kernels?.setPairPrecision(this.inner.precision === 'f32' ? 1 : 0);
    this.wasm = kernels;
    this.wasmMemory = kernels ? memory : null;
  }

  /**
   * The kernels' argument lists (byte offsets of the arrays, then the scalars; the last three slots are dt, i0 and
   * i1), rebuilt when the neighbour lists grew (new arrays): a call then allocates nothing.
   */
  private wasmArgs: {
    inner: Int32Array;
    contact: Int32Array;
    pressure: number[];
    density: number[];
    summation: number[];
    fused: number[];
  } | null = null;

  private kernelArgs(): { pressure: number[]; density: number[]; summation: number[]; fused: number[] } {
    const n = this.inner;
    const c = this.contact;
    const cached = this.wasmArgs;
    if (cached && cached.inner === n.j && cached.contact === c.j) return cached;
    const f = this.fluid;
    const w = this.wall;
    const { rho0, c0 } = this.s;
    const tensile = this.s.tensileControl ? 1 : 0;
    const { rhoHalf, drhoHalf, vxNext, vyNext, vzNext } = this;
    type Arrays = (Float64Array | Float32Array | Int32Array)[];
    const arrays: { pressure: Arrays; density: Arrays } =
      this.s.dim === 2
        ? {
            pressure: (
              [f.x, f.y, f.vx, f.vy, f.apx, f.apy, f.p, f.vol, rhoHalf, drhoHalf, n.start, n.end, n.j, n.dw] as Arrays
            ).concat([n.ex, n.ey, c.start, c.end, c.j, c.dw, c.r, c.ex, c.ey, w.vol, w.ax, w.ay]),
            density: (
              [f.vx, f.vy, f.rho, f.drho, f.vol, rhoHalf, drhoHalf, vxNext, vyNext, n.start, n.end, n.j] as Arrays
            ).concat([n.dw, n.ex, n.ey, c.start, c.end, c.j, c.dw, c.ex, c.ey, w.vol, w.vx, w.vy, w.nx, w.ny]),
          }
        : {
            pressure: ([f.x, f.y, f.z, f.vx, f.vy, f.vz, f.apx, f.apy, f.apz, f.p, f.vol, rhoHalf, drhoHalf] as Arrays)
              .concat([n.start, n.end, n.j, n.dw, n.ex, n.ey, n.ez, c.start, c.end, c.j, c.dw, c.r, c.ex, c.ey])
              .concat([c.ez, w.vol, w.ax, w.ay, w.az]),
            density: ([f.vx, f.vy, f.vz, f.rho, f.drho, f.vol, rhoHalf, drhoHalf, vxNext, vyNext, vzNext] as Arrays)
              .concat([n.start, n.end, n.j, n.dw, n.ex, n.ey, n.ez, c.start, c.end, c.j, c.dw, c.ex, c.ey, c.ez])
              .concat([w.vol, w.vx, w.vy, w.vz, w.nx, w.ny, w.nz]),
          };
    const args = {
      inner: n.j,
      contact: c.j,
      pressure: [...arrays.pressure.map(at), 1 / (rho0 * c0), tensile, 0, 0, 0],
      density: [...arrays.density.map(at), rho0 * c0, 3 / c0, 0, 0, 0],
      summation: [
        ...[f.rho, f.p, f.mass, f.vol, f.vx, f.vy, f.vz, n.start, n.end, n.j, n.w].map(at),
        ...[c.start, c.end, c.w, c.j, w.vol].map(at),
        this.w0,
        rho0,
        c0 * c0,
        rho0 / this.sigma0,
        this.s.freeSurface ? 1 : 0,
        0,
        0,
      ],
      fused: [
        ...[f.x, f.y, f.z, f.vx, f.vy, f.vz, f.apx, f.apy, f.apz, f.rho, f.drho, f.p, f.mass, f.vol, rhoHalf].map(at),
        ...[drhoHalf, n.start, n.end, n.j, n.dw, n.ex, n.ey, n.ez, c.start, c.end, c.j, c.dw, c.r, c.ex, c.ey].map(at),
        ...[c.ez, w.vol, w.ax, w.ay, w.az].map(at),
        rho0,
        c0 * c0,
        1 / (rho0 * c0),
        tensile,
        0,
        0,
        0,
      ],
    };
    this.wasmArgs = args;
    return args;
  }

  /** Argument lists of the neighbour-build kernel (inner, contact), rebuilt when the lists grew. */
  private buildArgs: { inner: Int32Array; contact: Int32Array; lists: [number[], number[]] } | null = null;

  /** The WebAssembly twin of `buildNeighbours` (same rows, bit for bit); 1 if a region was too small, else 0. */
  private wasmBuildNeighbours(kernels: FluidKernels, i0: number, i1: number, part: number, parts: number): number {
    const { inner, contact } = this;
    let cached = this.buildArgs;
    if (!cached || cached.inner !== inner.j || cached.contact !== contact.j) {
      const list = (
        target: ParticleArrays,
        source: ParticleArrays,
        cells: CellLinkedList,
        l: NeighbourList,
        self: boolean,
      ): number[] => {
        const d = cells.domain;
        const k = this.kernel;
        const invH = 1 / k.h;
        return [
          ...[target.x, target.y, target.z, source.x, source.y, source.z, cells.head, cells.next].map(at),
          ...[l.start, l.end, l.j, l.w, l.dw, l.r, l.ex, l.ey, l.ez].map(at),
          cells.nx,
          cells.ny,
          cells.nz,
          ...d.lower,
          1 / cells.sx,
          1 / cells.sy,
          1 / cells.sz,
          ...d.periodic.map(Number),
          d.upper[0] - d.lower[0],
          d.upper[1] - d.lower[1],
          d.upper[2] - d.lower[2],
          k.cutoff * k.cutoff,
          invH,
          k.alpha,
          -5 * k.alpha * invH * this.gradientScale,
          self ? 1 : 0,
          0,
          0,
          0,
          0,
        ];
      };
      cached = {
        inner: inner.j,
        contact: contact.j,
        lists: [
          list(this.fluid, this.fluid, this.cells, inner, true),
          list(this.fluid, this.wall, this.wallCells, contact, false),
        ],
      };
      this.buildArgs = cached;
    }
    const lists = [inner, contact];
    for (let l = 0; l < 2; l++) {
      if (l === 1 && this.wall.count === 0) {
        contact.start.fill(0, i0, i1);
        contact.end.fill(0, i0, i1);
        break;
      }
      const args = cached.lists[l]!;
      const cap = lists[l]!.capacity;
      const n = args.length;
      args[n - 4] = i0;
      args[n - 3] = i1;
      args[n - 2] = Math.floor((cap * part) / parts);
      args[n - 1] = Math.floor((cap * (part + 1)) / parts);
      if (Reflect.apply<undefined, number[], number>(kernels.buildNeighbours, undefined, args) < 0) return 1;
    }
    return 0;
  }

  /** The WebAssembly twin of `pressureStep2d` / `pressureStep` after `pressureHalfStep` (not fused). */
  private wasmPressureForces(kernels: FluidKernels, i0: number, i1: number, dt: number): void {
    const fn = this.s.dim === 2 ? kernels.pressureForces2d : kernels.pressureForces3d;
    callKernel(fn, this.kernelArgs().pressure, i0, i1, dt);
  }

  /** The WebAssembly twin of `densityStep2d` / `densityStep`; returns the range's max speed², m²/s². */
  private wasmDensityStep(kernels: FluidKernels, i0: number, i1: number, dt: number): number {
    const fn = this.s.dim === 2 ? kernels.densityStep2d : kernels.densityStep3d;
    return callKernel(fn, this.kernelArgs().density, i0, i1, dt);
  }

  /**
   * Neighbour rows of particles `[i0, i1)` of both lists, written into region `part` of `parts` equal
   * regions of each list's pair arrays. Returns 1 if a region was too small (the caller then grows the lists
   * and builds serially), else 0.
   */
  buildNeighbours(i0: number, i1: number, part: number, parts: number): number {
    if (this.wasm) return this.wasmBuildNeighbours(this.wasm, i0, i1, part, parts);
    const { fluid, wall, inner, contact } = this;
    const ci = inner.capacity;
    const k = buildNeighbours(
      fluid,
      fluid,
      this.cells,
      this.kernel,
      true,
      inner,
      this.gradientScale,
      i0,
      i1,
      Math.floor((ci * part) / parts),
      Math.floor((ci * (part + 1)) / parts),
    );
    if (k < 0) return 1;
    if (wall.count === 0) {
      contact.start.fill(0, i0, i1);
      contact.end.fill(0, i0, i1);
      return 0;
    }
    const cc = contact.capacity;
    const kc = buildNeighbours(
      fluid,
      wall,
      this.wallCells,
      this.kernel,
      false,
      contact,
      this.gradientScale,
      i0,
      i1,
      Math.floor((cc * part) / parts),
      Math.floor((cc * (part + 1)) / parts),
    );
    return kc < 0 ? 1 : 0;
  }

  /**
   * Neighbour rows (as `buildNeighbours`) and then density summation of particles `[i0, i1)` in one pass (a
   * particle's summation reads only its own row). Returns the range's maximum speed², m²/s², or `OVERFLOW` if a
   * pair region was too small: the caller then restores ρ from `rhoHalf` (saved here first), grows the lists and
   * builds serially.
   */
  neighboursAndSummation(i0: number, i1: number, part: number, parts: number): number {
    this.rhoHalf.set(this.fluid.rho.subarray(i0, i1), i0);
    if (this.buildNeighbours(i0, i1, part, parts) !== 0) return OVERFLOW;
    return this.densitySummation(i0, i1);
  }

  /**
   * Density by summation (free-surface variant if configured); updates pressure and volume. Returns the range's
   * maximum speed² (for the time-step criteria), m²/s².
   */
  densitySummation(i0: number, i1: number): number {
    if (this.wasm) {
      const vmax2 = callKernel(this.wasm.densitySummation, this.kernelArgs().summation, i0, i1);
      if (this.s.viscosity) this.shearViscosity(i0, i1, this.s.viscosity);
      return vmax2;
    }
    const { rho, p, mass, vol, vx, vy, vz } = this.fluid;
    const { start, j: nj, w } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cw = this.contact.w;
    const cj = this.contact.j;
    const wallVol = this.wall.vol;
    const { rho0, c0, freeSurface } = this.s;
    const c2 = c0 * c0;
    const scale = rho0 / this.sigma0;
    let vmax2 = 0;
    for (let i = i0; i < i1; i++) {
      const mi = mass[i]!;
      let sigma = this.w0;
      const end = rowEnd[i]!;
      for (let k = start[i]!; k < end; k++) sigma += (w[k]! * mass[nj[k]!]!) / mi;
      const cend = ce[i]!;
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
      const s2 = vx[i]! * vx[i]! + vy[i]! * vy[i]! + vz[i]! * vz[i]!;
      if (s2 > vmax2) vmax2 = s2;
    }
    if (this.s.viscosity) this.shearViscosity(i0, i1, this.s.viscosity);
    return vmax2;
  }

  /**
   * Shear rate γ̇ = √(2 D:D) and viscosity μ(γ̇) of particles `[i0, i1)` from the velocity gradient
   * ∇v_i = Σ_j V_j (v_j − v_i) ⊗ ∇W_ij over the particle's own rows (walls with the mirrored velocity 2v_w − v_i).
   * Neighbour volumes are taken as m_j/ρ₀: ρ_j may be being summed by another thread in the same pass.
   */
  shearViscosity(i0: number, i1: number, model: ViscosityModel): void {
    const { vx, vy, vz, mass } = this.fluid;
    const { start, j: nj, dw, ex, ey, ez } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const cez = this.contact.ez;
    const wallVol = this.wall.vol;
    const { vx: wvx, vy: wvy, vz: wvz } = this.wall;
    const invRho0 = 1 / this.s.rho0;
    const mu = this.mu;
    const rate = this.shearRate;
    for (let i = i0; i < i1; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const vzi = vz[i]!;
      // Velocity gradient L[a][b] = ∂v_a/∂x_b.
      let lxx = 0;
      let lxy = 0;
      let lxz = 0;
      let lyx = 0;
      let lyy = 0;
      let lyz = 0;
      let lzx = 0;
      let lzy = 0;
      let lzz = 0;
      const end = rowEnd[i]!;
      for (let k = start[i]!; k < end; k++) {
        const j = nj[k]!;
        const d = dw[k]! * mass[j]! * invRho0;
        const gx = d * ex[k]!;
        const gy = d * ey[k]!;
        const gz = d * ez[k]!;
        const ux = vx[j]! - vxi;
        const uy = vy[j]! - vyi;
        const uz = vz[j]! - vzi;
        lxx += ux * gx;
        lxy += ux * gy;
        lxz += ux * gz;
        lyx += uy * gx;
        lyy += uy * gy;
        lyz += uy * gz;
        lzx += uz * gx;
        lzy += uz * gy;
        lzz += uz * gz;
      }
      const cend = ce[i]!;
      for (let k = cs[i]!; k < cend; k++) {
        const j = cj[k]!;
        const d = cdw[k]! * wallVol[j]!;
        const gx = d * cex[k]!;
        const gy = d * cey[k]!;
        const gz = d * cez[k]!;
        const ux = 2 * (wvx[j]! - vxi);
        const uy = 2 * (wvy[j]! - vyi);
        const uz = 2 * (wvz[j]! - vzi);
        lxx += ux * gx;
        lxy += ux * gy;
        lxz += ux * gz;
        lyx += uy * gx;
        lyy += uy * gy;
        lyz += uy * gz;
        lzx += uz * gx;
        lzy += uz * gy;
        lzz += uz * gz;
      }
      const dxy = 0.5 * (lxy + lyx);
      const dxz = 0.5 * (lxz + lzx);
      const dyz = 0.5 * (lyz + lzy);
      const g = Math.sqrt(2 * (lxx * lxx + lyy * lyy + lzz * lzz + 2 * (dxy * dxy + dxz * dxz + dyz * dyz)));
      rate[i] = g;
      mu[i] = apparentViscosity(model, g);
    }
  }

  /** Body force plus viscous acceleration into the advection-step acceleration `ap`, m/s². */
  viscousAndBodyForce(i0: number, i1: number): void {
    const { vx, vy, vz, apx, apy, apz, rho, vol } = this.fluid;
    const { start, j: nj, dw, r } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cr = this.contact.r;
    const wallVol = this.wall.vol;
    const { vx: wvx, vy: wvy, vz: wvz } = this.wall;
    const [gx, gy, gz] = this.s.gravity;
    const twoMu = 2 * this.s.mu;
    const variable = !!this.s.viscosity;
    const eps = 0.01 * this.h;
    for (let i = i0; i < i1; i++) {
      let sx = 0;
      let sy = 0;
      let sz = 0;
      if (variable) {
        this.variableViscousForce(i);
        sx = this.vsx;
        sy = this.vsy;
        sz = this.vsz;
      } else if (twoMu > 0) {
        const vxi = vx[i]!;
        const vyi = vy[i]!;
        const vzi = vz[i]!;
        const end = rowEnd[i]!;
        for (let k = start[i]!; k < end; k++) {
          const j = nj[k]!;
          const f = (dw[k]! * vol[j]!) / (r[k]! + eps);
          sx += f * (vxi - vx[j]!);
          sy += f * (vyi - vy[j]!);
          sz += f * (vzi - vz[j]!);
        }
        const cend = ce[i]!;
        for (let k = cs[i]!; k < cend; k++) {
          // No-slip wall: the mirrored velocity 2 v_w − v_i gives a jump of 2 (v_i − v_w).
          const j = cj[k]!;
          const f = (2 * cdw[k]! * wallVol[j]!) / (cr[k]! + eps);
          sx += f * (vxi - wvx[j]!);
          sy += f * (vyi - wvy[j]!);
          sz += f * (vzi - wvz[j]!);
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

  /** The viscous acceleration of `variableViscousForce`, m/s². */
  private vsx = 0;
  private vsy = 0;
  private vsz = 0;

  /**
   * Viscous acceleration of particle `i` with per-particle viscosities: the Newtonian form with μ_ij = 2μ_iμ_j/(μ_i + μ_j)
   * (the harmonic mean, which keeps the viscous flux continuous across a jump in μ) and μ_i at walls; into `vsx` ….
   */
  private variableViscousForce(i: number): void {
    const { vx, vy, vz, rho, vol } = this.fluid;
    const { start, j: nj, dw, r } = this.inner;
    const { mu } = this;
    const eps = 0.01 * this.h;
    const vxi = vx[i]!;
    const vyi = vy[i]!;
    const vzi = vz[i]!;
    const mi = mu[i]!;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    const end = this.inner.end[i]!;
    for (let k = start[i]!; k < end; k++) {
      const j = nj[k]!;
      const mj = mu[j]!;
      const f = ((2 * mi * mj) / (mi + mj)) * ((dw[k]! * vol[j]!) / (r[k]! + eps));
      sx += f * (vxi - vx[j]!);
      sy += f * (vyi - vy[j]!);
      sz += f * (vzi - vz[j]!);
    }
    const { start: cs, end: ce, j: cj, dw: cdw, r: cr } = this.contact;
    const { vx: wvx, vy: wvy, vz: wvz, vol: wallVol } = this.wall;
    for (let k = cs[i]!; k < ce[i]!; k++) {
      const j = cj[k]!;
      const f = (2 * mi * cdw[k]! * wallVol[j]!) / (cr[k]! + eps);
      sx += f * (vxi - wvx[j]!);
      sy += f * (vyi - wvy[j]!);
      sz += f * (vzi - wvz[j]!);
    }
    const c = 2 / rho[i]!;
    this.vsx = c * sx;
    this.vsy = c * sy;
    this.vsz = c * sz;
  }

  /**
   * Transport-velocity correction: shifts each particle by −coefficient·h²·Σ 2 V_j ∇W_ij (fluid and wall
   * neighbours). Positions can move in the same pass: the shift reads only the cached pair geometry and V.
   */
  transportCorrection(i0: number, i1: number): void {
    const coefficient = this.s.transportCorrection;
    const { vol, x, y, z } = this.fluid;
    const { start, j: nj, dw, ex, ey, ez } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const cez = this.contact.ez;
    const wallVol = this.wall.vol;
    const c = 2 * coefficient * this.h * this.h;
    for (let i = i0; i < i1; i++) {
      let sx = 0;
      let sy = 0;
      let sz = 0;
      const end = rowEnd[i]!;
      for (let k = start[i]!; k < end; k++) {
        const d = dw[k]! * vol[nj[k]!]!;
        sx += d * ex[k]!;
        sy += d * ey[k]!;
        sz += d * ez[k]!;
      }
      const cend = ce[i]!;
      for (let k = cs[i]!; k < cend; k++) {
        const d = cdw[k]! * wallVol[cj[k]!]!;
        sx += d * cex[k]!;
        sy += d * cey[k]!;
        sz += d * cez[k]!;
      }
      x[i] = x[i]! + -c * sx;
      y[i] = y[i]! + -c * sy;
      z[i] = z[i]! + -c * sz;
    }
  }

  /**
   * Pressure relaxation, first part when not `fused` (any dimension): half-step density (to the scratch),
   * pressure, volume and position of the range. No neighbour is read.
   */
  pressureHalfStep(i0: number, i1: number, dt: number): void {
    const { x, y, z, vx, vy, vz, rho, drho, p, mass, vol } = this.fluid;
    const rhoHalf = this.rhoHalf;
    const { rho0, c0 } = this.s;
    const c2 = c0 * c0;
    const halfDt = 0.5 * dt;
    const is3d = this.s.dim === 3;
    for (let i = i0; i < i1; i++) {
      const r = rho[i]! + drho[i]! * halfDt;
      rhoHalf[i] = r;
      p[i] = c2 * (r - rho0);
      vol[i] = mass[i]! / r;
      x[i] = x[i]! + vx[i]! * halfDt;
      y[i] = y[i]! + vy[i]! * halfDt;
      if (is3d) z[i] = z[i]! + vz[i]! * halfDt;
    }
  }

  /**
   * Pressure relaxation of an acoustic step of `dt` s (any dimension): pair forces, the velocity update and the
   * position half-steps. `fused`: in one pass with the half-step of `pressureHalfStep`, each particle computing its
   * own half-step density, pressure and volume and, per pair, its neighbour's from the neighbour's ρ and dρ/dt with
   * the same arithmetic (no pass and barrier before this one, but a division per pair: about 1.4× the pair work);
   * else after `pressureHalfStep`, reading p and V. The results are bit-identical. Writes p, V, v and x of the range;
   * the half-step density and the pressure part of dρ/dt go to the scratch, because neighbours still read ρ and
   * dρ/dt.
   */
  pressureStep(i0: number, i1: number, dt: number, fused = true): void {
    const { x, y, z, vx, vy, vz, apx, apy, apz, rho, drho, p, mass, vol } = this.fluid;
    const { rhoHalf, drhoHalf } = this;
    const { rho0, c0 } = this.s;
    const c2 = c0 * c0;
    const halfDt = 0.5 * dt;
    const { start, j: nj, dw, ex, ey, ez } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cr = this.contact.r;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const cez = this.contact.ez;
    const wallVol = this.wall.vol;
    const { ax: wax, ay: way, az: waz } = this.wall;
    const invRhoC = 1 / (rho0 * c0);
    const tensile = this.s.tensileControl === true;
    for (let i = i0; i < i1; i++) {
      let rhoI: number;
      let pi: number;
      // Position before this step's first half-step (the separate half-step pass moved it already).
      let x0: number;
      let y0: number;
      if (fused) {
        rhoI = rho[i]! + drho[i]! * halfDt;
        pi = c2 * (rhoI - rho0);
        p[i] = pi;
        vol[i] = mass[i]! / rhoI;
        x0 = x[i]! + vx[i]! * halfDt;
        y0 = y[i]! + vy[i]! * halfDt;
      } else {
        rhoI = rhoHalf[i]!;
        pi = p[i]!;
        x0 = x[i]!;
        y0 = y[i]!;
      }
      let sx = 0;
      let sy = 0;
      let sz = 0;
      let diss = 0;
      // Tensile-instability control (Sun et al. 2018): |p_i| in the pair sum, i.e. p_j − p_i where p_i < 0.
      const qi = tensile && pi < 0 ? -pi : pi;
      const end = rowEnd[i]!;
      if (fused) {
        for (let k = start[i]!; k < end; k++) {
          const j = nj[k]!;
          const rj = rho[j]! + drho[j]! * halfDt;
          const pj = c2 * (rj - rho0);
          const dwv = dw[k]! * (mass[j]! / rj);
          const s = (qi + pj) * dwv;
          sx += s * ex[k]!;
          sy += s * ey[k]!;
          sz += s * ez[k]!;
          diss += (pi - pj) * dwv;
        }
      } else {
        for (let k = start[i]!; k < end; k++) {
          const j = nj[k]!;
          const pj = p[j]!;
          const dwv = dw[k]! * vol[j]!;
          const s = (qi + pj) * dwv;
          sx += s * ex[k]!;
          sy += s * ey[k]!;
          sz += s * ez[k]!;
          diss += (pi - pj) * dwv;
        }
      }
      const gx = apx[i]!;
      const gy = apy[i]!;
      const gz = apz[i]!;
      const cend = ce[i]!;
      for (let k = cs[i]!; k < cend; k++) {
        const exk = cex[k]!;
        const eyk = cey[k]!;
        const ezk = cez[k]!;
        const jw = cj[k]!;
        // Wall pressure extrapolated with the fluid's acceleration relative to the wall's.
        const face = -((gx - wax[jw]!) * exk + (gy - way[jw]!) * eyk + (gz - waz[jw]!) * ezk);
        const pw = pi + rhoI * cr[k]! * (face > 0 ? face : 0);
        const dwv = cdw[k]! * wallVol[jw]!;
        const s = (qi + pw) * dwv;
        sx += s * exk;
        sy += s * eyk;
        sz += s * ezk;
        diss += (pi - pw) * dwv;
      }
      const invRho = 1 / rhoI;
      rhoHalf[i] = rhoI;
      drhoHalf[i] = diss * invRhoC * rhoI;
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const vzi = vz[i]!;
      const u = vxi + (gx - sx * invRho) * dt;
      const v = vyi + (gy - sy * invRho) * dt;
      const w = vzi + (gz - sz * invRho) * dt;
      vx[i] = u;
      vy[i] = v;
      vz[i] = w;
      x[i] = x0 + u * halfDt;
      y[i] = y0 + v * halfDt;
      z[i] = (fused ? z[i]! + vzi * halfDt : z[i]!) + w * halfDt;
    }
  }

  /** 2D `pressureStep` (same arithmetic without z). */
  pressureStep2d(i0: number, i1: number, dt: number, fused = true): void {
    const { x, y, vx, vy, apx, apy, rho, drho, p, mass, vol } = this.fluid;
    const { rhoHalf, drhoHalf } = this;
    const { rho0, c0 } = this.s;
    const c2 = c0 * c0;
    const halfDt = 0.5 * dt;
    const { start, j: nj, dw, ex, ey } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cr = this.contact.r;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const wallVol = this.wall.vol;
    const { ax: wax, ay: way } = this.wall;
    const invRhoC = 1 / (rho0 * c0);
    const tensile = this.s.tensileControl === true;
    for (let i = i0; i < i1; i++) {
      let rhoI: number;
      let pi: number;
      // Position before this step's first half-step (the separate half-step pass moved it already).
      let x0: number;
      let y0: number;
      if (fused) {
        rhoI = rho[i]! + drho[i]! * halfDt;
        pi = c2 * (rhoI - rho0);
        p[i] = pi;
        vol[i] = mass[i]! / rhoI;
        x0 = x[i]! + vx[i]! * halfDt;
        y0 = y[i]! + vy[i]! * halfDt;
      } else {
        rhoI = rhoHalf[i]!;
        pi = p[i]!;
        x0 = x[i]!;
        y0 = y[i]!;
      }
      let sx = 0;
      let sy = 0;
      let diss = 0;
      // Tensile-instability control (Sun et al. 2018): |p_i| in the pair sum, i.e. p_j − p_i where p_i < 0.
      const qi = tensile && pi < 0 ? -pi : pi;
      const end = rowEnd[i]!;
      if (fused) {
        for (let k = start[i]!; k < end; k++) {
          const j = nj[k]!;
          const rj = rho[j]! + drho[j]! * halfDt;
          const pj = c2 * (rj - rho0);
          const dwv = dw[k]! * (mass[j]! / rj);
          const s = (qi + pj) * dwv;
          sx += s * ex[k]!;
          sy += s * ey[k]!;
          diss += (pi - pj) * dwv;
        }
      } else {
        for (let k = start[i]!; k < end; k++) {
          const j = nj[k]!;
          const pj = p[j]!;
          const dwv = dw[k]! * vol[j]!;
          const s = (qi + pj) * dwv;
          sx += s * ex[k]!;
          sy += s * ey[k]!;
          diss += (pi - pj) * dwv;
        }
      }
      const gx = apx[i]!;
      const gy = apy[i]!;
      const cend = ce[i]!;
      for (let k = cs[i]!; k < cend; k++) {
        const exk = cex[k]!;
        const eyk = cey[k]!;
        const jw = cj[k]!;
        const face = -((gx - wax[jw]!) * exk + (gy - way[jw]!) * eyk);
        const pw = pi + rhoI * cr[k]! * (face > 0 ? face : 0);
        const dwv = cdw[k]! * wallVol[jw]!;
        const s = (qi + pw) * dwv;
        sx += s * exk;
        sy += s * eyk;
        diss += (pi - pw) * dwv;
      }
      const invRho = 1 / rhoI;
      rhoHalf[i] = rhoI;
      drhoHalf[i] = diss * invRhoC * rhoI;
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const u = vxi + (gx - sx * invRho) * dt;
      const v = vyi + (gy - sy * invRho) * dt;
      vx[i] = u;
      vy[i] = v;
      x[i] = x0 + u * halfDt;
      y[i] = y0 + v * halfDt;
    }
  }

  /**
   * Density relaxation of an acoustic step of `dt` s (any dimension), in one pass: pair divergence and Riemann
   * dissipation, the density update, and the velocity update into the scratch (`vxNext` …), because neighbours
   * still read v; `commitVelocity` copies it once every thread is done. Returns the range's max speed², m²/s².
   */
  densityStep(i0: number, i1: number, dt: number): number {
    const { vx, vy, vz, rho, drho, vol } = this.fluid;
    const { rhoHalf, drhoHalf, vxNext, vyNext, vzNext } = this;
    const { rho0, c0 } = this.s;
    const halfDt = 0.5 * dt;
    const { start, j: nj, dw, ex, ey, ez } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const cez = this.contact.ez;
    const wallVol = this.wall.vol;
    const { vx: wvx, vy: wvy, vz: wvz } = this.wall;
    const wnx = this.wall.nx;
    const wny = this.wall.ny;
    const wnz = this.wall.nz;
    const rhoC = rho0 * c0;
    const limiterScale = 3 / c0;
    let vmax2 = 0;
    for (let i = i0; i < i1; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const vzi = vz[i]!;
      let div = 0;
      let sx = 0;
      let sy = 0;
      let sz = 0;
      const end = rowEnd[i]!;
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
      const cend = ce[i]!;
      for (let k = cs[i]!; k < cend; k++) {
        const j = cj[k]!;
        const dwv = cdw[k]! * wallVol[j]!;
        // Relative to the wall velocity (the mirrored fluid velocity is 2 v_w − v_i).
        const ux = vxi - wvx[j]!;
        const uy = vyi - wvy[j]!;
        const uz = vzi - wvz[j]!;
        div += 2 * (ux * cex[k]! + uy * cey[k]! + uz * cez[k]!) * dwv;
        const nxk = wnx[j]!;
        const nyk = wny[j]!;
        const nzk = wnz[j]!;
        const uj = 2 * (ux * nxk + uy * nyk + uz * nzk);
        if (uj < 0) {
          const lim = -uj * limiterScale;
          const d = rhoC * uj * (lim < 1 ? lim : 1) * dwv;
          sx += d * nxk;
          sy += d * nyk;
          sz += d * nzk;
        }
      }
      const rhoI = rhoHalf[i]!;
      const rate = drhoHalf[i]! + div * rhoI;
      drho[i] = rate;
      rho[i] = rhoI + rate * halfDt;
      const invRho = 1 / rhoI;
      const u = vxi + sx * invRho * dt;
      const v = vyi + sy * invRho * dt;
      const w = vzi + sz * invRho * dt;
      vxNext[i] = u;
      vyNext[i] = v;
      vzNext[i] = w;
      const s = u * u + v * v + w * w;
      if (s > vmax2) vmax2 = s;
    }
    return vmax2;
  }

  /** 2D `densityStep` (same arithmetic without z). */
  densityStep2d(i0: number, i1: number, dt: number): number {
    const { vx, vy, rho, drho, vol } = this.fluid;
    const { rhoHalf, drhoHalf, vxNext, vyNext } = this;
    const { rho0, c0 } = this.s;
    const halfDt = 0.5 * dt;
    const { start, j: nj, dw, ex, ey } = this.inner;
    const rowEnd = this.inner.end;
    const cs = this.contact.start;
    const ce = this.contact.end;
    const cj = this.contact.j;
    const cdw = this.contact.dw;
    const cex = this.contact.ex;
    const cey = this.contact.ey;
    const wallVol = this.wall.vol;
    const { vx: wvx, vy: wvy } = this.wall;
    const wnx = this.wall.nx;
    const wny = this.wall.ny;
    const rhoC = rho0 * c0;
    const limiterScale = 3 / c0;
    let vmax2 = 0;
    for (let i = i0; i < i1; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      let div = 0;
      let sx = 0;
      let sy = 0;
      const end = rowEnd[i]!;
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
      const cend = ce[i]!;
      for (let k = cs[i]!; k < cend; k++) {
        const j = cj[k]!;
        const dwv = cdw[k]! * wallVol[j]!;
        const ux = vxi - wvx[j]!;
        const uy = vyi - wvy[j]!;
        div += 2 * (ux * cex[k]! + uy * cey[k]!) * dwv;
        const nxk = wnx[j]!;
        const nyk = wny[j]!;
        const uj = 2 * (ux * nxk + uy * nyk);
        if (uj < 0) {
          const lim = -uj * limiterScale;
          const d = rhoC * uj * (lim < 1 ? lim : 1) * dwv;
          sx += d * nxk;
          sy += d * nyk;
        }
      }
      const rhoI = rhoHalf[i]!;
      const rate = drhoHalf[i]! + div * rhoI;
      drho[i] = rate;
      rho[i] = rhoI + rate * halfDt;
      const invRho = 1 / rhoI;
      const u = vxi + sx * invRho * dt;
      const v = vyi + sy * invRho * dt;
      vxNext[i] = u;
      vyNext[i] = v;
      const s = u * u + v * v;
      if (s > vmax2) vmax2 = s;
    }
    return vmax2;
  }

  /** Copies the velocities of the last `densityStep` from the scratch into v (after every thread finished it). */
  commitVelocity(): void {
    const n = this.fluid.count;
    this.fluid.vx.set(this.vxNext.subarray(0, n));
    this.fluid.vy.set(this.vyNext.subarray(0, n));
    if (this.s.dim === 3) this.fluid.vz.set(this.vzNext.subarray(0, n));
  }

  /**
   * Runs pass `pass` (a `Pass` code) over `[i0, i1)` with time step `dt` (s) as part `part` of `parts` (a chunk of
   * the pool; it selects the region of the pair arrays the neighbour build writes);
   * returns the range's maximum speed² (m²/s²) for the passes that reduce it, the overflow flag of
   * `buildNeighbours` (`OVERFLOW` for `NeighboursAndSummation`), else 0. This is the dispatch the worker threads
   * use.
   */
  runPass(pass: number, i0: number, i1: number, dt: number, part = 0, parts = 1): number {
    const is2d = this.s.dim === 2;
    switch (pass) {
      case Pass.BuildNeighbours:
        return this.buildNeighbours(i0, i1, part, parts);
      case Pass.NeighboursAndSummation:
        return this.neighboursAndSummation(i0, i1, part, parts);
      case Pass.DensitySummation:
        return this.densitySummation(i0, i1);
      case Pass.ViscousAndBodyForce:
        this.viscousAndBodyForce(i0, i1);
        return 0;
      case Pass.ForcesAndTransport:
        // The shift reads V and the cached geometry only, so it may follow the viscous force in the same pass.
        this.viscousAndBodyForce(i0, i1);
        if (this.s.transportCorrection > 0) this.transportCorrection(i0, i1);
        return 0;
      case Pass.PressureStep:
      case Pass.PressureForces: {
        const fused = pass === Pass.PressureStep;
        if (this.wasm && fused) callKernel(this.wasm.pressureStepFused, this.kernelArgs().fused, i0, i1, dt);
        else if (this.wasm) this.wasmPressureForces(this.wasm, i0, i1, dt);
        if (this.wasm) return 0;
        if (is2d) this.pressureStep2d(i0, i1, dt, fused);
        else this.pressureStep(i0, i1, dt, fused);
        return 0;
      }
      case Pass.PressureHalfStep:
        this.pressureHalfStep(i0, i1, dt);
        return 0;
      case Pass.DensityStep:
        if (this.wasm) return this.wasmDensityStep(this.wasm, i0, i1, dt);
        return is2d ? this.densityStep2d(i0, i1, dt) : this.densityStep(i0, i1, dt);
      default:
        throw new RangeError(`unknown pass ${pass}`);
    }
  }
}

/**
 * Calls kernel `fn` with `args` whose last two slots are set to `i0` and `i1`, and the one before them to `dt` if
 * given (no allocation).
 */
function callKernel(
  fn: (...args: number[]) => number | void,
  args: number[],
  i0: number,
  i1: number,
  dt?: number,
): number {
  const last = args.length;
  if (dt !== undefined) args[last - 3] = dt;
  args[last - 2] = i0;
  args[last - 1] = i1;
  return Reflect.apply(fn, undefined, args) ?? 0;
}

/** Byte offset of `a` in its (shared WebAssembly) memory: the kernels' pointer to it. */
function at(a: Float64Array | Float32Array | Int32Array): number {
  return a.byteOffset;
}

/** Returned by `NeighboursAndSummation` for a part whose pair region overflowed (never a speed²). */
export const OVERFLOW = Infinity;

/** Codes of the passes a worker can run (`FluidPasses.runPass`). */
export const Pass = {
  DensitySummation: 1,
  ViscousAndBodyForce: 2,
  ForcesAndTransport: 3,
  PressureStep: 6,
  DensityStep: 7,
  PressureHalfStep: 8,
  PressureForces: 9,
  BuildNeighbours: 10,
  NeighboursAndSummation: 11,
} as const;
