import { CellLinkedList, type Domain } from './cellList';
import { WendlandC2, smoothingLength } from './kernel';
import { NeighbourList, buildNeighbours } from './neighbours';
import type { OpenBoundaryFluid } from './openBoundary';
import type { ParticleArrays } from './particles';
import type { ParticleTracker } from './tracking';
import { apparentViscosity, type ViscosityModel } from './viscosity';

/**
 * Derived outputs for the product's plots (issue 15, item 6): flow rate through a plane, mean pressure on a plane and
 * the drop between two planes, wall shear stress, vorticity, capture by a device or a wall, residence time. Every
 * function returns SI values (m³/s, Pa, 1/s, s); `DERIVED_OUTPUTS` names each output so that `outputUnit` (spec §9)
 * gives its display unit and `siToUnitFactor` the conversion (L/min, mmHg). See docs/decisions/sph-derived-outputs.md.
 */

/** A plane section: a point, a normal (the positive flow direction) and an optional radius about the point, m. */
export interface PlaneSection {
  centre: readonly [number, number, number];
  normal: readonly [number, number, number];
  /** Only particles within this distance of the axis through `centre` count (default: the whole plane). */
  radius?: number;
}

/** Output names of the derived quantities (snake_case, spec §9 units through `outputUnit`). */
export const DERIVED_OUTPUTS = {
  flowRate: 'flow_rate',
  pressure: 'pressure',
  pressureDrop: 'pressure_drop',
  wallShearStress: 'wall_shear_stress',
  vorticity: 'vorticity',
  capturePercentage: 'capture_percentage',
  residenceTime: 'residence_time',
  // Device expansion (`expansion.ts`, solid cases).
  deviceDiameter: 'device_diameter',
  ovality: 'ovality',
  vonMisesStress: 'von_mises_stress',
  contactPressure: 'contact_pressure',
  contactForce: 'contact_force',
  axialDisplacement: 'axial_displacement',
  lineLoad: 'line_load',
} as const;

/**
 * Σ_i V_i g(i) w(s_i) over the fluid particles near the plane, with the hat weight w(s) = (1 − |s|/a)/a of half-width
 * a = 2 dp (s: signed distance from the plane), which sums to 1 over any row of particles spaced dp along the normal:
 * it is the integral of g over the section without the jitter of counting particles as they cross. `g` gets the slot
 * and the unit normal. Returns [Σ V g w, Σ V w] (the second: the section's area, m², m in 2D).
 */
export function planeIntegral(
  f: ParticleArrays,
  plane: PlaneSection,
  dp: number,
  g: (i: number, nx: number, ny: number, nz: number) => number,
): [number, number] {
  const is3d = f.dim === 3;
  const [dx0, dy0, dz0] = plane.normal;
  const n = Math.hypot(dx0, dy0, is3d ? dz0 : 0);
  if (!(n > 0)) throw new RangeError('the plane normal must not be zero');
  const dx = dx0 / n;
  const dy = dy0 / n;
  const dz = is3d ? dz0 / n : 0;
  const [cx, cy, cz] = plane.centre;
  const radius = plane.radius ?? Infinity;
  const a = 2 * dp;
  let sum = 0;
  let area = 0;
  for (let i = 0; i < f.count; i++) {
    const rx = f.x[i]! - cx;
    const ry = f.y[i]! - cy;
    const rz = is3d ? f.z[i]! - cz : 0;
    const s = rx * dx + ry * dy + rz * dz;
    if (s <= -a || s >= a) continue;
    if (radius < Infinity && Math.hypot(rx - s * dx, ry - s * dy, rz - s * dz) >= radius) continue;
    const w = (f.vol[i]! * (1 - Math.abs(s) / a)) / a;
    sum += g(i, dx, dy, dz) * w;
    area += w;
  }
  return [sum, area];
}

/** Volume flow rate through the plane along its normal, m³/s (m²/s in 2D). Display: L/min (`siToUnitFactor`). */
export function volumeFlowRate(f: ParticleArrays, plane: PlaneSection, dp: number): number {
  return planeIntegral(f, plane, dp, (i, nx, ny, nz) => f.vx[i]! * nx + f.vy[i]! * ny + f.vz[i]! * nz)[0];
}

/** Area-weighted mean pressure over the plane section, Pa (relative to the fluid's reference, like `p`). */
export function meanPressure(f: ParticleArrays, plane: PlaneSection, dp: number): number {
  const [sum, area] = planeIntegral(f, plane, dp, (i) => f.p[i]!);
  if (!(area > 0)) throw new RangeError('no fluid particle lies at the plane');
  return sum / area;
}

/** Mean pressure on `upstream` minus that on `downstream`, Pa. */
export function pressureDrop(f: ParticleArrays, upstream: PlaneSection, downstream: PlaneSection, dp: number): number {
  return meanPressure(f, upstream, dp) - meanPressure(f, downstream, dp);
}

/** Neighbour rows of `target` among `source` within the kernel support (serial build over a fresh cell list). */
function neighbours(
  target: ParticleArrays,
  source: ParticleArrays,
  kernel: WendlandC2,
  dp: number,
  domain: Domain | undefined,
): NeighbourList {
  const dom = domain ?? boundingDomain([target, source], kernel.cutoff + dp);
  const cells = new CellLinkedList(dom, kernel.cutoff, Math.max(1, source.capacity), target.dim);
  cells.rebuild(source);
  const list = new NeighbourList(Math.max(1, target.count), Math.max(1, target.count) * (target.dim === 2 ? 32 : 96));
  buildNeighbours(target, source, cells, kernel, target === source, list);
  return list;
}

/** A non-periodic domain around particle sets, widened by `margin` m. */
function boundingDomain(sets: readonly ParticleArrays[], margin: number): Domain {
  const lower: [number, number, number] = [Infinity, Infinity, Infinity];
  const upper: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const dim = sets[0]!.dim;
  for (const s of sets) {
    const axes = [s.x, s.y, s.z];
    for (let a = 0; a < 3; a++) {
      for (let i = 0; i < s.count; i++) {
        lower[a] = Math.min(lower[a]!, axes[a]![i]!);
        upper[a] = Math.max(upper[a]!, axes[a]![i]!);
      }
    }
  }
  for (let a = 0; a < 3; a++) {
    if (a === 2 && dim === 2) {
      lower[2] = 0;
      upper[2] = 0;
      continue;
    }
    lower[a] = lower[a]! - margin;
    upper[a] = upper[a]! + margin;
  }
  return { lower, upper, periodic: [false, false, false] };
}

/** Settings of the field outputs: spacing and, for periodic flows, the fluid's domain. */
export interface FieldOptions {
  dp: number;
  /** The fluid's domain (needed for periodic axes; default: a box around the particles). */
  domain?: Domain;
}

/**
 * Vorticity ω = ∇ × v of every fluid particle, 1/s, three components per particle (2D: only z). The velocity gradient
 * is the kernel-gradient-corrected SPH gradient G = [Σ_j V_j (v_j − v_i) ⊗ ∇W_ij] · [Σ_j V_j (x_j − x_i) ⊗ ∇W_ij]⁻¹
 * over fluid and wall neighbours (walls at their own velocity, zero when static), exact for any linear velocity field
 * on any stencil that spans the space (e.g. 2Ω for a solid-body rotation at angular velocity Ω, up to walls).
 */
export function vorticity(fluid: ParticleArrays, wall: ParticleArrays | null, o: FieldOptions): Float64Array {
  const dim = fluid.dim;
  const kernel = new WendlandC2(smoothingLength(o.dp), dim);
  const lists: [ParticleArrays, NeighbourList][] = [[fluid, neighbours(fluid, fluid, kernel, o.dp, o.domain)]];
  if (wall && wall.count > 0) lists.push([wall, neighbours(fluid, wall, kernel, o.dp, o.domain)]);
  const out = new Float64Array(3 * fluid.count);
  const A = new Float64Array(9);
  const M = new Float64Array(9);
  const G = new Float64Array(9);
  for (let i = 0; i < fluid.count; i++) {
    A.fill(0);
    M.fill(0);
    for (const [src, list] of lists) {
      for (let k = list.start[i]!; k < list.end[i]!; k++) {
        const j = list.j[k]!;
        const r = list.r[k]!;
        const d = list.dw[k]! * src.vol[j]!;
        // ∇_i W_ij = dW/dr e_ij, e_ij = (x_i − x_j)/r; x_j − x_i = −r e_ij.
        const g = [d * list.ex[k]!, d * list.ey[k]!, d * list.ez[k]!];
        const dv = [src.vx[j]! - fluid.vx[i]!, src.vy[j]! - fluid.vy[i]!, src.vz[j]! - fluid.vz[i]!];
        const dx = [-r * list.ex[k]!, -r * list.ey[k]!, -r * list.ez[k]!];
        for (let a = 0; a < 3; a++) {
          for (let b = 0; b < 3; b++) {
            A[3 * a + b] = A[3 * a + b]! + dv[a]! * g[b]!;
            M[3 * a + b] = M[3 * a + b]! + dx[a]! * g[b]!;
          }
        }
      }
    }
    if (dim === 2) {
      M[2] = M[5] = M[6] = M[7] = 0;
      M[8] = 1;
    }
    if (!invert3(M)) continue; // too few neighbours to span the space: left at zero
    // G = A · M⁻¹ (M now holds the inverse).
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 3; b++) {
        G[3 * a + b] = A[3 * a]! * M[b]! + A[3 * a + 1]! * M[3 + b]! + A[3 * a + 2]! * M[6 + b]!;
      }
    }
    // G[3a + b] = ∂v_a/∂x_b.
    if (dim === 3) {
      out[3 * i] = G[7]! - G[5]!;
      out[3 * i + 1] = G[2]! - G[6]!;
    }
    out[3 * i + 2] = G[3]! - G[1]!;
  }
  return out;
}

/** Inverts the row-major 3×3 matrix in place; false when it is (nearly) singular. */
function invert3(m: Float64Array): boolean {
  const [a, b, c, d, e, f, g, h, k] = m as unknown as number[];
  const A = e! * k! - f! * h!;
  const B = f! * g! - d! * k!;
  const C = d! * h! - e! * g!;
  const det = a! * A + b! * B + c! * C;
  const scale = Math.max(...Array.from(m, Math.abs)) ** 3;
  if (!(Math.abs(det) > 1e-10 * scale)) return false;
  const inv = 1 / det;
  m[0] = A * inv;
  m[1] = (c! * h! - b! * k!) * inv;
  m[2] = (b! * f! - c! * e!) * inv;
  m[3] = B * inv;
  m[4] = (a! * k! - c! * g!) * inv;
  m[5] = (c! * d! - a! * f!) * inv;
  m[6] = C * inv;
  m[7] = (b! * g! - a! * h!) * inv;
  m[8] = (a! * e! - b! * d!) * inv;
  return true;
}

/** Wall shear stress on the wall particles. */
export interface WallShearStress {
  /** Tangential traction of the fluid on each wall particle, Pa, three components per particle (zero off the surface). */
  traction: Float64Array;
  /** Its magnitude, Pa. */
  magnitude: Float64Array;
  /** 1 for the wall particles of the surface layer (those that get a value), else 0. */
  surface: Uint8Array;
}

/**
 * Wall shear stress τ_w = μ ∂u_t/∂s at the wall surface, per wall particle of the surface layer (wall normals must
 * point into the fluid). For wall particle i with unit normal n: its depth below the surface d = (nearest fluid
 * particle along n) − dp/2 (the surface lies halfway between the wall and the fluid lattice); each fluid neighbour j
 * lies s_j = (x_j − x_k)·n_k − d_k above the surface, k its nearest surface-layer wall particle (or exactly, from
 * `surfaceDistance`); its tangential velocity relative to the wall, u_t, is fitted by
 * u_t = a s + b s² (no slip at s = 0; least squares over the kernel support), so a quadratic profile such as Poiseuille's is reproduced
 * exactly, and τ_w = μ(|a|) a. Only particles with d < dp (the surface layer) get a value. `mu` is the viscosity, or
 * a shear-thinning model evaluated at the wall shear rate |a|.
 */
export function wallShearStress(
  fluid: ParticleArrays,
  wall: ParticleArrays,
  o: FieldOptions & {
    mu: number | ViscosityModel;
    /**
     * Signed distance (m) from a point to the wall surface, negative in the fluid (e.g. `Vessel.shape.distance`):
     * when given, each fluid neighbour's height above the surface is exact instead of estimated. Give it for lattice
     * walls from meshes: their particles lie at any depth below the surface (the staircase), and the estimate, which
     * assumes the surface halfway between the wall and the fluid layers, is off there (−49 % on a tube at R/6).
     */
    surfaceDistance?: (x: number, y: number, z: number) => number;
  },
): WallShearStress {
  const kernel = new WendlandC2(smoothingLength(o.dp), fluid.dim);
  const list = neighbours(wall, fluid, kernel, o.dp, o.domain);
  const n = wall.count;
  const traction = new Float64Array(3 * n);
  const magnitude = new Float64Array(n);
  const surface = new Uint8Array(n);
  // Depth of each wall particle below the surface, from its nearest fluid particle along the normal (NaN: none).
  const depth = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) {
    const nx = wall.nx[i]!;
    const ny = wall.ny[i]!;
    const nz = wall.nz[i]!;
    if (nx === 0 && ny === 0 && nz === 0) continue;
    let nearest = Infinity;
    for (let k = list.start[i]!; k < list.end[i]!; k++) {
      // x_j − x_i = −r e_ij.
      nearest = Math.min(nearest, -list.r[k]! * (list.ex[k]! * nx + list.ey[k]! * ny + list.ez[k]! * nz));
    }
    const d = nearest - o.dp / 2;
    if (d < o.dp) depth[i] = d;
  }
  // Height of each fluid particle above the surface: measured along the normal of its nearest surface-layer wall
  // particle, which lies almost straight below it, so a curved wall's sagitta stays negligible (a projection on a
  // farther wall particle's normal would overstate the height by about ℓ²/2R at a lateral offset ℓ).
  const height = new Float64Array(fluid.count).fill(NaN);
  if (!o.surfaceDistance) {
    const back = neighbours(fluid, wall, kernel, o.dp, o.domain);
    for (let j = 0; j < fluid.count; j++) {
      let best = Infinity;
      for (let k = back.start[j]!; k < back.end[j]!; k++) {
        const i = back.j[k]!;
        const r = back.r[k]!;
        if (Number.isNaN(depth[i]!) || r >= best) continue;
        best = r;
        // x_j − x_i = r e_ji.
        height[j] = r * (back.ex[k]! * wall.nx[i]! + back.ey[k]! * wall.ny[i]! + back.ez[k]! * wall.nz[i]!) - depth[i]!;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(depth[i]!)) continue;
    const nx = wall.nx[i]!;
    const ny = wall.ny[i]!;
    const nz = wall.nz[i]!;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    const r1 = [0, 0, 0];
    const r2 = [0, 0, 0];
    for (let k = list.start[i]!; k < list.end[i]!; k++) {
      const j = list.j[k]!;
      let s = height[j]!;
      if (Number.isNaN(s) && o.surfaceDistance) {
        // Each fluid particle's distance once (a mesh distance query is the expensive part).
        s = -o.surfaceDistance(fluid.x[j]!, fluid.y[j]!, fluid.z[j]!);
        height[j] = s;
      }
      if (!(s > 0)) continue;
      // Plain least squares over the support: kernel weights would put most of the weight on the first fluid layer,
      // whose heights over a staircase wall are the most disturbed in a running flow (+21 % on a lattice tube, +5 %
      // with equal weights; docs/validation.md).
      const w = 1;
      const ux = fluid.vx[j]! - wall.vx[i]!;
      const uy = fluid.vy[j]! - wall.vy[i]!;
      const uz = fluid.vz[j]! - wall.vz[i]!;
      const un = ux * nx + uy * ny + uz * nz;
      const t = [ux - un * nx, uy - un * ny, uz - un * nz];
      s2 += w * s * s;
      s3 += w * s * s * s;
      s4 += w * s * s * s * s;
      for (let a = 0; a < 3; a++) {
        r1[a] = r1[a]! + w * s * t[a]!;
        r2[a] = r2[a]! + w * s * s * t[a]!;
      }
    }
    const det = s2 * s4 - s3 * s3;
    if (!(det > 1e-12 * s2 * s4)) continue;
    const a = [0, 1, 2].map((c) => (r1[c]! * s4 - r2[c]! * s3) / det);
    const rate = Math.hypot(a[0]!, a[1]!, a[2]!);
    const mu = typeof o.mu === 'number' ? o.mu : apparentViscosity(o.mu, rate);
    surface[i] = 1;
    for (let c = 0; c < 3; c++) traction[3 * i + c] = mu * a[c]!;
    magnitude[i] = mu * rate;
  }
  return { traction, magnitude, surface };
}

/**
 * Residence time of the fluid: each particle's time since it entered the domain (s). Particles present at set-up
 * count from `startTime`; with open boundaries, a particle's clock starts when it is first seen released from an inlet
 * buffer (call `update` after every advection step: the entry time is then known within one step).
 */
export class FluidAge {
  private readonly fluid: ParticleArrays;
  private readonly open: OpenBoundaryFluid | undefined;
  /** Entry time by particle id (NaN: not entered yet, still in an inlet buffer). */
  private entry: Float64Array;
  private time: number;

  constructor(fluid: ParticleArrays, startTime = 0, open?: OpenBoundaryFluid) {
    this.fluid = fluid;
    this.open = open;
    this.time = startTime;
    this.entry = new Float64Array(Math.max(16, fluid.nextId)).fill(NaN);
    this.update(startTime);
  }

  /** Records the particles that entered since the last call, at time `time` (s). */
  update(time: number): void {
    this.time = time;
    const f = this.fluid;
    if (f.nextId > this.entry.length) {
      const grown = new Float64Array(Math.max(f.nextId, 2 * this.entry.length)).fill(NaN);
      grown.set(this.entry);
      this.entry = grown;
    }
    for (let i = 0; i < f.count; i++) {
      const id = f.id[i]!;
      if (Number.isNaN(this.entry[id]!) && !this.open?.isEmitter(i)) this.entry[id] = time;
    }
  }

  /** The entry times by particle id (up to the fluid's next id) and the time of the last `update`, for a checkpoint. */
  state(): { entry: Float64Array; time: number } {
    return { entry: this.entry.slice(0, Math.max(this.fluid.nextId, 1)), time: this.time };
  }

  /** Restores `state()` (after the fluid's particles and ids have been restored). */
  restore(entry: Float64Array, time: number): void {
    this.entry = new Float64Array(Math.max(16, this.fluid.nextId, entry.length)).fill(NaN);
    this.entry.set(entry);
    this.time = time;
  }

  /** Residence time of every fluid slot at the last `update`, s (NaN for inlet buffer particles). */
  ages(): Float64Array {
    const f = this.fluid;
    const out = new Float64Array(f.count);
    for (let i = 0; i < f.count; i++) out[i] = this.time - this.entry[f.id[i]!]!;
    return out;
  }

  /**
   * Flux-weighted mean residence time of the fluid crossing the plane, s: Σ V (v·n) age w / Σ V (v·n) w (the mean
   * time the fluid leaving through an outlet section spent inside).
   */
  meanThroughPlane(plane: PlaneSection, dp: number): number {
    const f = this.fluid;
    const age = this.ages();
    const flux = (i: number, nx: number, ny: number, nz: number): number =>
      Number.isNaN(age[i]!) ? 0 : f.vx[i]! * nx + f.vy[i]! * ny + f.vz[i]! * nz;
    const [q] = planeIntegral(f, plane, dp, flux);
    const [qa] = planeIntegral(f, plane, dp, (i, nx, ny, nz) => flux(i, nx, ny, nz) * (age[i]! || 0));
    if (!(q > 0)) throw new RangeError('no flow crosses the plane');
    return qa / q;
  }
}

/** Capture of tracked particles by the capture sets (a device, the walls). */
export interface CaptureSummary {
  /** Tracked particles. */
  released: number;
  /** Captured by any set. */
  captured: number;
  /** Captured per capture set, in the tracker's `capture` order. */
  bySet: number[];
  /** Captured / released × 100, % (spec §9 percentage). */
  capturePercentage: number;
  /** Residence time of each tracked particle: time of capture, or the tracker's time while free, s. */
  residenceTime: Float64Array;
}

/** Capture counts and residence times of the particles of `tracker` (released at `releaseTime`, s). */
export function captureSummary(tracker: ParticleTracker, releaseTime = 0): CaptureSummary {
  const n = tracker.particles.count;
  const sets = tracker.captureSetCount;
  const bySet = new Array<number>(sets).fill(0);
  const residenceTime = new Float64Array(n);
  let captured = 0;
  for (let i = 0; i < n; i++) {
    const by = tracker.capturedBy[i]!;
    if (tracker.captured[i] === 1) {
      captured++;
      if (by >= 0 && by < sets) bySet[by] = bySet[by]! + 1;
      residenceTime[i] = tracker.captureTime[i]! - releaseTime;
    } else {
      residenceTime[i] = tracker.currentTime - releaseTime;
    }
  }
  return { released: n, captured, bySet, capturePercentage: n > 0 ? (100 * captured) / n : 0, residenceTime };
}
