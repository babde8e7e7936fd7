import type { FluidCounters, WeaklyCompressibleFluid } from './fluid';
import type { PackedArray } from './checkpoint';
import type { ParticleArrays } from './particles';
import { runAsync, runSync, type RunOptions, type RunStatus } from './run';

/**
 * Open boundaries of a weakly compressible fluid (issue 15, item 1), after SPHinXsys's emitter / disposer buffers
 * (Zhang, Rezavand & Hu, JCP 2021; `EmitterInflowInjection`, `DisposerOutflowDeletion`): a velocity inlet whose buffer
 * particles move with the prescribed profile and, on crossing the inlet plane, become fluid while a copy of each
 * re-enters the buffer one buffer length upstream; and a pressure outlet after SPHinXsys's bidirectional buffer (Zhang,
 * Fan, Hu et al., arXiv 2403.09485; `BidirectionalBuffer`, `PressureCondition`, `DensitySummationPressure`): the
 * buffer's particles are fluid with their own density (by continuity, as their support is cut) and pressure, the
 * outlet pressure enters only through the neighbours missing beyond the buffer, a particle leaving the buffer inwards
 * leaves a copy at its far end (where there is room: a guard against over-creation under backflow, the problem Wang & Hu's fringe addresses) and one
 * past the far end is removed; the buffer's density also relaxes towards the outlet pressure (not SPHinXsys's: it
 * keeps the product's aortic outlet stable in diastole). Fluid that flows back across an inlet plane joins that inlet's buffer
 * (as SPHinXsys's inflow velocity condition acts on every particle in the buffer box): it moves with the prescribed
 * profile, re-enters as fluid if carried across the plane again and is removed past the buffer's upstream end; the
 * mass balance counts it as flow out through the inlet. Particles are created and removed only between advection steps,
 * on the calling thread, in index order, so results stay bit-identical for any thread count. See
 * docs/decisions/sph-open-boundaries.md.
 */

/** A value that may vary in time: a constant, or a table of (time s, value) pairs, optionally periodic. */
export type Waveform =
  | number
  | {
      /** (time s, value) pairs with strictly rising times; linear in between, held constant outside. */
      table: readonly (readonly [number, number])[];
      /** Period, s: the table is read at t mod period (its times should then span [0, period]). */
      period?: number;
    };

/** Checks a waveform; throws a RangeError that says what is wrong. */
export function checkWaveform(w: Waveform, what: string): void {
  if (typeof w === 'number') {
    if (!Number.isFinite(w)) throw new RangeError(`${what} must be a finite number`);
    return;
  }
  const t = w.table;
  if (t.length === 0) throw new RangeError(`${what}: the table is empty`);
  for (let k = 0; k < t.length; k++) {
    const [time, value] = t[k]!;
    if (!Number.isFinite(time) || !Number.isFinite(value)) throw new RangeError(`${what}: row ${k} is not finite`);
    if (k > 0 && time <= t[k - 1]![0]) throw new RangeError(`${what}: times must rise strictly (row ${k})`);
  }
  if (w.period !== undefined && !(w.period > 0)) throw new RangeError(`${what}: the period must be positive`);
}

/** The least value `w` takes (a table is linear between its rows and held outside them: its least row). */
export function waveformMinimum(w: Waveform): number {
  return typeof w === 'number' ? w : Math.min(...w.table.map(([, value]) => value));
}

/** The value of `w` at time `t` (s). */
export function waveformValue(w: Waveform, t: number): number {
  if (typeof w === 'number') return w;
  const table = w.table;
  const time = w.period ? t - Math.floor(t / w.period) * w.period : t;
  const n = table.length;
  if (time <= table[0]![0]) return table[0]![1];
  if (time >= table[n - 1]![0]) return table[n - 1]![1];
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (table[mid]![0] <= time) lo = mid;
    else hi = mid;
  }
  const [t0, v0] = table[lo]!;
  const [t1, v1] = table[hi]!;
  return v0 + ((v1 - v0) * (time - t0)) / (t1 - t0);
}

/** Velocity profile over an inlet section. */
export type InletProfile = 'plug' | 'parabolic';

/** A velocity inlet (SI units). */
export interface VelocityInletOptions {
  /** Centre of the inlet section (a point of the inlet plane), m. */
  centre: readonly [number, number, number];
  /** Flow direction, into the domain (normalised here). */
  direction: readonly [number, number, number];
  /** Section radius, m: a disc in 3D, a segment of half-width `radius` in 2D. */
  radius: number;
  /**
   * Buffer length upstream of the plane, m: the fluid particles there when the boundary is set up become the buffer.
   * At least the kernel's cutoff (2.6 dp); default 4 dp.
   */
  length?: number;
  /** Profile shape: uniform, or parabolic (1 − (r/R)²) over the section (default parabolic). */
  profile?: InletProfile;
  /** Volume flow rate, m³/s (m²/s in 2D), constant or a table (time s → flow rate). */
  flowRate: Waveform;
}

/** A pressure outlet (SI units). */
export interface PressureOutletOptions {
  /** A point of the outlet plane (the section centre), m. */
  centre: readonly [number, number, number];
  /** Outward direction (out of the domain; normalised here). */
  direction: readonly [number, number, number];
  /** Section radius, m (particles farther from the axis are not in the buffer; default: no limit). */
  radius?: number;
  /** Buffer length downstream of the plane, m (at least the cutoff; default 4 dp). Particles beyond it are removed. */
  length?: number;
  /**
   * Pressure, Pa, constant or a table (time s → pressure). The weakly compressible fluid's density follows it
   * (ρ = ρ₀ + p/c₀²), so give it relative to a reference level (0 = the reference).
   */
  pressure: Waveform;
  /**
   * A buffer particle drawn back across the plane leaves its copy at the buffer's far end only where no buffer particle
   * lies within this many dp (default `OUTLET_GUARD`): for validating the guard; cases leave it at the default.
   */
  refillGuard?: number;
}

/** Mass balance of one advection step (kg; kg/m in 2D). */
export interface MassBalance {
  /** Simulated time at the end of the step, s. */
  time: number;
  /** Duration of the step, s. */
  dt: number;
  /**
   * Net mass that crossed each inlet plane into the domain during the step: the released buffer particles less the
   * net `backflow`.
   */
  inflow: number[];
  /**
   * Net mass that flowed back out of the domain through each inlet plane during the step: the fluid that crossed the
   * plane backwards (it joins the inlet's buffer, see `OpenBoundaryFluid`) less such fluid carried across it again.
   * `inflow + backflow` is the mass of the released buffer particles, each replaced by a copy: the fluid's total mass
   * changes by Σ (inflow + backflow) + `refilled` − `removed`.
   */
  backflow: number[];
  /** Net mass that crossed each outlet plane out of the domain during the step. */
  outflow: number[];
  /**
   * Mass removed at the far end of the buffers during the step: past an outlet buffer's downstream end, or fluid that
   * flowed back through an inlet and out past its buffer's upstream end.
   */
  removed: number;
  /**
   * Mass created at the far end of the outlet buffers during the step: one copy, a buffer length downstream, of each
   * buffer particle that flowed back across its outlet plane (backflow), so the buffer stays full; none where another
   * buffer particle lies within the refill guard (0.8 dp) of the copy's place.
   */
  refilled: number;
  /** Mass of the fluid between the inlet and outlet planes (buffers excluded) at the end of the step. */
  inside: number;
  /** inside(now) − inside(before) − Σ inflow + Σ outflow: zero up to rounding, by construction. */
  imbalance: number;
  /**
   * Smooth cumulative mass through each inlet plane since the start, kg (`crossedMass`): differences over a window give
   * the inflow without the jitter of whole rings of emitters released at once.
   */
  inflowCumulative: number[];
  /** Smooth cumulative mass through each outlet plane since the start, kg (`crossedMass`). */
  outflowCumulative: number[];
  /** Mass flow rate 2 dp past each inlet plane at the end of the step (`planeFlowRate`), kg/s (kg/(m·s) in 2D). */
  inletRate: number[];
  /** Mass flow rate 2 dp before each outlet plane at the end of the step, kg/s (kg/(m·s) in 2D). */
  outletRate: number[];
}

/**
 * Mass flow rate (kg/s; kg/(m·s) in 2D) through the plane through `centre` with unit normal `direction`, within
 * `radius` of the centre: Σ m_i (v_i·n) w(s_i) with the hat weight w(s) = (1 − |s|/a)/a of half-width a = 2 dp (s:
 * the distance from the plane). The hat sums exactly to 1 over any row of particles spaced dp along n, so a uniform
 * flow gives its flux without the jitter of counting particles as they cross.
 */
export function planeFlowRate(
  f: ParticleArrays,
  centre: readonly [number, number, number],
  direction: readonly [number, number, number],
  dp: number,
  radius = Infinity,
): number {
  const n = Math.hypot(direction[0], direction[1], f.dim === 3 ? direction[2] : 0);
  const dx = direction[0] / n;
  const dy = direction[1] / n;
  const dz = f.dim === 3 ? direction[2] / n : 0;
  const a = 2 * dp;
  let q = 0;
  for (let i = 0; i < f.count; i++) {
    const rx = f.x[i]! - centre[0];
    const ry = f.y[i]! - centre[1];
    const rz = f.dim === 3 ? f.z[i]! - centre[2] : 0;
    const s = rx * dx + ry * dy + rz * dz;
    if (s <= -a || s >= a) continue;
    if (radius < Infinity && Math.hypot(rx - s * dx, ry - s * dy, rz - s * dz) >= radius) continue;
    const w = (1 - Math.abs(s) / a) / a;
    q += f.mass[i]! * (f.vx[i]! * dx + f.vy[i]! * dy + f.vz[i]! * dz) * w;
  }
  return q;
}

/**
 * Tag of a particle between the planes; emitters have tags ≥ 0, outlet k's buffer −2 − k, and fluid that flowed back
 * into inlet k's buffer RETURNED − k.
 */
const INTERIOR = -1;
const RETURNED = -(2 ** 30);

/**
 * Relaxation time of an outlet buffer's density towards the outlet pressure, in buffer lengths over c₀ (the value the
 * product's run was checked with; docs/decisions/sph-outlet-buffer-fill.md, D).
 */
const OUTLET_RELAXATION = 4;

/**
 * A buffer particle drawn back across its outlet plane leaves its copy at the buffer's far end only where no buffer
 * particle lies within this many dp: against creating too many particles under backflow (the problem Wang & Hu,
 * arXiv 2510.25702, address with their own rule, not reproduced here). 0.8, not 0.5: at 0.5 the long backflow of a
 * ventricle's filling crowded the buffer and broke the run at dp 3 and 2.5 mm; 0.8 held at 5, 4, 3 and 2.5 mm for
 * about 10 points less buffer fill (docs/decisions/sph-outlet-buffer-fill.md, "The refill guard").
 */
const OUTLET_GUARD = 0.8;

/** The outlet whose buffer a tag stands for, or −1. */
function outletOfTag(t: number): number {
  return t <= -2 && t > RETURNED ? -2 - t : -1;
}

/** The inlet whose buffer a tag of returned fluid stands for, or −1. */
function inletOfTag(t: number): number {
  return t <= RETURNED ? RETURNED - t : -1;
}

interface Plane {
  cx: number;
  cy: number;
  cz: number;
  dx: number;
  dy: number;
  dz: number;
  radius: number;
  length: number;
}

function plane(
  o: { centre: readonly [number, number, number]; direction: readonly [number, number, number]; radius?: number },
  length: number,
  dim: number,
  what: string,
): Plane {
  const [dx, dy, dz0] = o.direction;
  const dz = dim === 3 ? dz0 : 0;
  const n = Math.hypot(dx, dy, dz);
  if (!(n > 0)) throw new RangeError(`${what}: the direction must not be zero`);
  const r = o.radius ?? Infinity;
  if (!(r > 0)) throw new RangeError(`${what}: the radius must be positive`);
  return {
    cx: o.centre[0],
    cy: o.centre[1],
    cz: dim === 3 ? o.centre[2] : 0,
    dx: dx / n,
    dy: dy / n,
    dz: dz / n,
    radius: r,
    length,
  };
}

/**
 * A fluid with velocity inlets and pressure outlets. The fluid's particle arrays need spare capacity for the
 * particles created while the run goes on (about one buffer's worth per inlet). `step` and `run` replace the
 * fluid's own: each advection step first releases the emitters that crossed their inlet plane (creating their
 * replacements) and removes the particles beyond the outlet buffers, then runs the fluid's advection step with the
 * inlet kinematics and the outlet pressure imposed after the density summation and after every acoustic step.
 */
export class OpenBoundaryFluid {
  readonly sim: WeaklyCompressibleFluid;
  /** Mass balance of every advection step so far. */
  readonly history: MassBalance[] = [];
  /**
   * Cumulative mass since the start: net in through each inlet, net back out through each inlet
   * (`MassBalance.backflow`), out through each outlet, and removed.
   */
  readonly totals: { inflow: number[]; backflow: number[]; outflow: number[]; removed: number };
  private readonly inlets: (Plane & { profile: InletProfile; flowRate: Waveform; scale: number })[];
  private readonly outlets: (Plane & { pressure: Waveform; guard: number })[];
  /** Per fluid slot: INTERIOR, an emitter index (≥ 0) or −2 − outlet. */
  private readonly tag: Int32Array;
  /** Per emitter: its fluid slot, inlet, position along the axis (s ≤ 0 in the buffer), offset from the axis. */
  private readonly emitSlot: Int32Array;
  private readonly emitInlet: Int32Array;
  private readonly emitS: Float64Array;
  private readonly emitLateral: Float64Array;
  /** Per emitter: profile shape × volume flow scale (velocity per unit flow rate), 1/m² (1/m in 2D). */
  private readonly emitUnitVelocity: Float64Array;
  /** Per outlet-buffer slot: Σ_j V_j ∇W_ij over present neighbours (the truncated support), 1/m. */
  private readonly kernelSum: Float64Array;
  /**
   * Per outlet-buffer slot, over one advection step: its density before the density summation (the buffer keeps its
   * own, `keepOutletBuffers`) and its position before the transport-velocity shift.
   */
  private readonly keptRho: Float64Array;
  private readonly keptPosition: Float64Array;
  /**
   * Per slot of returned fluid (in an inlet buffer), over one advection step: its position along the inlet's axis
   * (s < 0) and its offset from the axis, taken from its position between the steps (`exchange`).
   */
  private readonly returnS: Float64Array;
  private readonly returnLateral: Float64Array;
  private inside: number;
  /** Time inside the current advection step, s. */
  private elapsed = 0;

  constructor(
    sim: WeaklyCompressibleFluid,
    inlets: readonly VelocityInletOptions[],
    outlets: readonly PressureOutletOptions[],
  ) {
    this.sim = sim;
    const f = sim.fluid;
    const { dim, dp } = sim.options;
    const cutoff = sim.kernel.cutoff;
    const bufferLength = (l: number | undefined, what: string): number => {
      const length = l ?? 4 * dp;
      if (!(length >= cutoff)) throw new RangeError(`${what}: the buffer must be at least 2.6 dp (${cutoff} m) long`);
      return length;
    };
    this.inlets = inlets.map((o, k) => {
      const what = `inlet ${k + 1}`;
      checkWaveform(o.flowRate, `${what} flow rate`);
      // The emitters move with the prescribed velocity: under a reversed flow they would leave their buffer upstream.
      if (waveformMinimum(o.flowRate) < 0) {
        throw new RangeError(
          `${what}: the flow rate must not be negative (a velocity inlet only lets fluid in; fluid leaves through a pressure outlet)`,
        );
      }
      return {
        ...plane(o, bufferLength(o.length, what), dim, what),
        profile: o.profile ?? 'parabolic',
        flowRate: o.flowRate,
        scale: 0,
      };
    });
    this.outlets = outlets.map((o, k) => {
      const what = `outlet ${k + 1}`;
      checkWaveform(o.pressure, `${what} pressure`);
      const guard = o.refillGuard ?? OUTLET_GUARD;
      if (!(guard >= 0 && guard < 2)) throw new RangeError(`${what}: the refill guard must be 0 to 2 dp`);
      return {
        ...plane(o, bufferLength(o.length, what), dim, what),
        pressure: o.pressure,
        guard: guard * dp,
      };
    });
    this.tag = new Int32Array(f.capacity).fill(INTERIOR);
    // The emitters: fluid particles inside an inlet's buffer at set-up.
    const emitters: { slot: number; inlet: number; s: number; lateral: [number, number, number]; shape: number }[] = [];
    const weight = new Float64Array(this.inlets.length);
    for (let i = 0; i < f.count; i++) {
      for (let k = 0; k < this.inlets.length; k++) {
        const p = this.inlets[k]!;
        const { s, lx, ly, lz, r } = this.local(p, i);
        if (s < -p.length || s >= 0 || r >= p.radius) continue;
        const shape = p.profile === 'plug' ? 1 : 1 - (r / p.radius) ** 2;
        // Volume flux of the buffer: Σ V_e u_e / length (each emitter re-enters once per length / u_e).
        weight[k] = weight[k]! + (shape * (f.mass[i]! / sim.options.rho0)) / p.length;
        emitters.push({ slot: i, inlet: k, s, lateral: [lx, ly, lz], shape });
        this.tag[i] = emitters.length - 1;
        break;
      }
    }
    this.inlets.forEach((p, k) => {
      if (!(weight[k]! > 0)) throw new RangeError(`inlet ${k + 1}: no fluid particle lies in its buffer`);
      // The prescribed flow rate is met exactly by the discrete buffer.
      p.scale = 1 / weight[k]!;
    });
    const n = emitters.length;
    this.emitSlot = new Int32Array(n);
    this.emitInlet = new Int32Array(n);
    this.emitS = new Float64Array(n);
    this.emitLateral = new Float64Array(3 * n);
    this.emitUnitVelocity = new Float64Array(n);
    emitters.forEach((e, k) => {
      this.emitSlot[k] = e.slot;
      this.emitInlet[k] = e.inlet;
      this.emitS[k] = e.s;
      this.emitLateral.set(e.lateral, 3 * k);
      this.emitUnitVelocity[k] = e.shape * this.inlets[e.inlet]!.scale;
    });
    this.kernelSum = new Float64Array(3 * f.capacity);
    this.keptRho = new Float64Array(f.capacity);
    this.keptPosition = new Float64Array(3 * f.capacity);
    this.returnS = new Float64Array(f.capacity);
    this.returnLateral = new Float64Array(3 * f.capacity);
    this.totals = {
      inflow: this.inlets.map(() => 0),
      backflow: this.inlets.map(() => 0),
      outflow: this.outlets.map(() => 0),
      removed: 0,
    };
    // Particles already in an outlet buffer belong to it.
    for (let i = 0; i < f.count; i++) {
      if (this.tag[i] !== INTERIOR) continue;
      const k = this.outletOf(i);
      if (k >= 0) this.tag[i] = -2 - k;
    }
    this.inside = this.interiorMass();
    this.imposeInlets(0);
    // The buffers start at the outlet pressure; from then on they keep their own density.
    for (let i = 0; i < f.count; i++) {
      const k = outletOfTag(this.tag[i]!);
      if (k >= 0) this.setOutletPressure(i, k, sim.counters.time);
    }
  }

  /** Counters of the fluid (simulated time included). */
  get counters(): FluidCounters {
    return this.sim.counters;
  }

  /** Number of buffer particles of the inlets. */
  get emitterCount(): number {
    return this.emitSlot.length;
  }

  /** Whether fluid slot `i` is an inlet buffer particle. */
  isEmitter(i: number): boolean {
    return this.tag[i]! >= 0;
  }

  /** Whether fluid slot `i` lies between the inlet and outlet planes (not in a buffer). */
  isInterior(i: number): boolean {
    return this.tag[i] === INTERIOR;
  }

  /** Whether fluid slot `i` flowed back across an inlet plane and is now in that inlet's buffer. */
  isReturned(i: number): boolean {
    return this.tag[i]! <= RETURNED;
  }

  /** Axial position s (m, along the direction from the plane) and offset from the axis of slot `i`. */
  private local(p: Plane, i: number): { s: number; lx: number; ly: number; lz: number; r: number } {
    const f = this.sim.fluid;
    const rx = f.x[i]! - p.cx;
    const ry = f.y[i]! - p.cy;
    const rz = f.z[i]! - p.cz;
    const s = rx * p.dx + ry * p.dy + rz * p.dz;
    const lx = rx - s * p.dx;
    const ly = ry - s * p.dy;
    const lz = rz - s * p.dz;
    return { s, lx, ly, lz, r: Math.hypot(lx, ly, lz) };
  }

  /** The inlet whose buffer holds slot `i` (before its plane, at most a buffer length, within its radius), or −1. */
  private inletOf(i: number): number {
    for (let k = 0; k < this.inlets.length; k++) {
      const p = this.inlets[k]!;
      const { s, r } = this.local(p, i);
      if (s < 0 && s >= -p.length && r < p.radius) return k;
    }
    return -1;
  }

  /** The outlet whose buffer holds slot `i` (past its plane, within its radius), or −1. */
  private outletOf(i: number): number {
    for (let k = 0; k < this.outlets.length; k++) {
      const p = this.outlets[k]!;
      const { s, r } = this.local(p, i);
      if (s >= 0 && r < p.radius) return k;
    }
    return -1;
  }

  private interiorMass(): number {
    const f = this.sim.fluid;
    let m = 0;
    for (let i = 0; i < f.count; i++) if (this.tag[i] === INTERIOR) m += f.mass[i]!;
    return m;
  }

  /** Removes slot `i`, keeping the tags and the emitters' slots in step with the particle that moves into it. */
  private removeSlot(i: number): void {
    const from = this.sim.fluid.remove(i);
    if (from < 0) return;
    const t = this.tag[from]!;
    this.tag[i] = t;
    if (t >= 0) this.emitSlot[t] = i;
  }

  /**
   * Between advection steps: releases the emitters past their plane (each leaves a new buffer particle one buffer
   * length upstream), moves particles into / out of the inlet and outlet buffers and removes those past a buffer's
   * end.
   */
  private exchange(): { inflow: number[]; backflow: number[]; outflow: number[]; removed: number; refilled: number } {
    const f = this.sim.fluid;
    const inflow = this.inlets.map(() => 0);
    const backflow = this.inlets.map(() => 0);
    const outflow = this.outlets.map(() => 0);
    let removed = 0;
    let refilled = 0;
    for (let e = 0; e < this.emitSlot.length; e++) {
      if (this.emitS[e]! < 0) continue;
      const i = this.emitSlot[e]!;
      const p = this.inlets[this.emitInlet[e]!]!;
      // The buffer particle becomes fluid; a copy of it takes its place in the buffer, one length upstream.
      if (f.count >= f.capacity) {
        throw new RangeError(`particle capacity ${f.capacity} exhausted by the inlet (give the fluid more room)`);
      }
      const j = f.count;
      f.count = j + 1;
      f.copy(i, j);
      f.id[j] = f.nextId++;
      this.tag[i] = INTERIOR;
      this.tag[j] = e;
      this.emitSlot[e] = j;
      this.emitS[e] = this.emitS[e]! - p.length;
      inflow[this.emitInlet[e]!] = inflow[this.emitInlet[e]!]! + f.mass[i]!;
      this.placeEmitter(e);
    }
    // From the last slot down: a removal moves the last particle, which has been looked at already, into the gap.
    for (let i = f.count - 1; i >= 0; i--) {
      const t = this.tag[i]!;
      if (t >= 0) continue;
      if (t === INTERIOR) {
        const b = this.inletOf(i);
        if (b >= 0) {
          // Back across an inlet plane: out of the domain, into the inlet's buffer, where the inlet's velocity holds.
          this.tag[i] = RETURNED - b;
          inflow[b] = inflow[b]! - f.mass[i]!;
          backflow[b] = backflow[b]! + f.mass[i]!;
          continue;
        }
        const k = this.outletOf(i);
        if (k < 0) continue;
        this.tag[i] = -2 - k;
        outflow[k] = outflow[k]! + f.mass[i]!;
        if (this.local(this.outlets[k]!, i).s >= this.outlets[k]!.length) {
          removed += f.mass[i]!;
          this.removeSlot(i);
        }
        continue;
      }
      const b = inletOfTag(t);
      if (b >= 0) {
        const { s } = this.local(this.inlets[b]!, i);
        if (s >= 0) {
          // Carried across the inlet plane again: fluid again, flowing in.
          this.tag[i] = INTERIOR;
          inflow[b] = inflow[b]! + f.mass[i]!;
          backflow[b] = backflow[b]! - f.mass[i]!;
        } else if (s < -this.inlets[b]!.length) {
          removed += f.mass[i]!;
          this.removeSlot(i);
        }
        continue;
      }
      const k = outletOfTag(t);
      const p = this.outlets[k]!;
      const { s } = this.local(p, i);
      if (s >= p.length) {
        removed += f.mass[i]!;
        this.removeSlot(i);
      } else if (s < 0) {
        // Back across the outlet plane (backflow): fluid again, and a copy of it refills the buffer one length
        // downstream, so that the outlet keeps supplying fluid at its pressure.
        this.tag[i] = INTERIOR;
        outflow[k] = outflow[k]! - f.mass[i]!;
        const cx = f.x[i]! + p.length * p.dx;
        const cy = f.y[i]! + p.length * p.dy;
        const cz = f.z[i]! + p.length * p.dz;
        if (!this.roomAt(k, cx, cy, cz)) continue;
        if (f.count >= f.capacity) {
          throw new RangeError(`particle capacity ${f.capacity} exhausted by backflow at outlet ${k + 1}`);
        }
        const j = f.count;
        f.count = j + 1;
        f.copy(i, j);
        f.id[j] = f.nextId++;
        f.x[j] = cx;
        f.y[j] = cy;
        f.z[j] = cz;
        this.tag[j] = t;
        // Where it enters the outlet's pressure holds (SPHinXsys's `Injection`).
        this.setOutletPressure(j, k, this.sim.counters.time);
        refilled += f.mass[i]!;
      }
    }
    // The returned fluid's place in its inlet's frame, for the kinematics of the coming advection step.
    for (let i = 0; i < f.count; i++) {
      const b = inletOfTag(this.tag[i]!);
      if (b < 0) continue;
      const { s, lx, ly, lz } = this.local(this.inlets[b]!, i);
      this.returnS[i] = s;
      this.returnLateral[3 * i] = lx;
      this.returnLateral[3 * i + 1] = ly;
      this.returnLateral[3 * i + 2] = lz;
    }
    return { inflow, backflow, outflow, removed, refilled };
  }

  /** Whether no particle of outlet `k`'s buffer lies within the guard distance of (x, y, z). */
  private roomAt(k: number, x: number, y: number, z: number): boolean {
    const f = this.sim.fluid;
    const d = this.outlets[k]!.guard;
    const d2 = d * d;
    const t = -2 - k;
    for (let i = 0; i < f.count; i++) {
      if (this.tag[i] !== t) continue;
      const rx = f.x[i]! - x;
      const ry = f.y[i]! - y;
      const rz = f.z[i]! - z;
      if (rx * rx + ry * ry + rz * rz < d2) return false;
    }
    return true;
  }

  /** Puts emitter `e` at its axial position with the velocity of the current profile (`u` = its speed, m/s). */
  private placeEmitter(e: number, u?: number): void {
    const f = this.sim.fluid;
    const p = this.inlets[this.emitInlet[e]!]!;
    const i = this.emitSlot[e]!;
    const s = this.emitS[e]!;
    const l = 3 * e;
    f.x[i] = p.cx + s * p.dx + this.emitLateral[l]!;
    f.y[i] = p.cy + s * p.dy + this.emitLateral[l + 1]!;
    f.z[i] = p.cz + s * p.dz + this.emitLateral[l + 2]!;
    if (u !== undefined) {
      f.vx[i] = u * p.dx;
      f.vy[i] = u * p.dy;
      f.vz[i] = u * p.dz;
    }
  }

  /**
   * Inlet kinematics after `dt` s more of motion, at time `time` (s), and the inlet pressure: a velocity inlet leaves
   * the pressure free (zero normal gradient), so the buffer takes the mean pressure of the fluid within one buffer
   * length downstream of the plane. Without it the buffer would sit at the reference density while the fluid beyond
   * carries the pressure drop of the vessel, and the jump would brake the fluid entering (found with the open channel:
   * a 25 % flux deficit just past the plane).
   */
  private imposeInlets(dt: number, time = this.sim.counters.time + this.elapsed): void {
    const f = this.sim.fluid;
    const q = this.inlets.map((p) => waveformValue(p.flowRate, time));
    const pSum = this.inlets.map(() => 0);
    const pCount = this.inlets.map(() => 0);
    for (let i = 0; i < f.count; i++) {
      if (this.tag[i] !== INTERIOR) continue;
      for (let k = 0; k < this.inlets.length; k++) {
        const p = this.inlets[k]!;
        const { s, r } = this.local(p, i);
        if (s < 0 || s >= p.length || r >= p.radius) continue;
        pSum[k] = pSum[k]! + f.p[i]!;
        pCount[k] = pCount[k]! + 1;
        break;
      }
    }
    const { rho0, c0 } = this.sim.options;
    const rho = this.inlets.map((_, k) => rho0 + pSum[k]! / Math.max(1, pCount[k]!) / (c0 * c0));
    for (let e = 0; e < this.emitSlot.length; e++) {
      const k = this.emitInlet[e]!;
      const u = q[k]! * this.emitUnitVelocity[e]!;
      this.emitS[e] = this.emitS[e]! + u * dt;
      this.placeEmitter(e, u);
      const i = this.emitSlot[e]!;
      const r = rho[k]!;
      f.rho[i] = r;
      f.drho[i] = 0;
      f.p[i] = c0 * c0 * (r - rho0);
      f.vol[i] = f.mass[i]! / r;
    }
    // Returned fluid in an inlet buffer moves as an emitter at its place would: the profile's velocity there.
    for (let i = 0; i < f.count; i++) {
      const k = inletOfTag(this.tag[i]!);
      if (k < 0) continue;
      const p = this.inlets[k]!;
      const lx = this.returnLateral[3 * i]!;
      const ly = this.returnLateral[3 * i + 1]!;
      const lz = this.returnLateral[3 * i + 2]!;
      const shape = p.profile === 'plug' ? 1 : Math.max(0, 1 - Math.hypot(lx, ly, lz) ** 2 / p.radius ** 2);
      const u = q[k]! * shape * p.scale;
      const s = this.returnS[i]! + u * dt;
      this.returnS[i] = s;
      f.x[i] = p.cx + s * p.dx + lx;
      f.y[i] = p.cy + s * p.dy + ly;
      f.z[i] = p.cz + s * p.dz + lz;
      f.vx[i] = u * p.dx;
      f.vy[i] = u * p.dy;
      f.vz[i] = u * p.dz;
      const r = rho[k]!;
      f.rho[i] = r;
      f.drho[i] = 0;
      f.p[i] = c0 * c0 * (r - rho0);
      f.vol[i] = f.mass[i]! / r;
    }
  }

  /** Gives slot `i` the density and pressure of outlet `k` at time `time` (s). */
  private setOutletPressure(i: number, k: number, time: number): void {
    const f = this.sim.fluid;
    const { rho0, c0 } = this.sim.options;
    const r = rho0 + waveformValue(this.outlets[k]!.pressure, time) / (c0 * c0);
    f.rho[i] = r;
    f.drho[i] = 0;
    f.p[i] = c0 * c0 * (r - rho0);
    f.vol[i] = f.mass[i]! / r;
  }

  /**
   * At an advection step's start (after `exchange`): keeps the outlet buffers' densities (evolved by continuity) and
   * positions, which `outletBuffersReady` puts back after the density summation and the transport-velocity shift.
   */
  private keepOutletBuffers(): void {
    const f = this.sim.fluid;
    for (let i = 0; i < f.count; i++) {
      if (outletOfTag(this.tag[i]!) < 0) continue;
      this.keptRho[i] = f.rho[i]!;
      this.keptPosition[3 * i] = f.x[i]!;
      this.keptPosition[3 * i + 1] = f.y[i]!;
      this.keptPosition[3 * i + 2] = f.z[i]!;
    }
  }

  /**
   * After the density summation and the transport-velocity shift. A buffer particle's support is cut by the buffer's
   * end, so its summed density would fall short: it keeps its density by continuity (SPHinXsys's
   * `DensitySummationPressure` leaves buffer particles out), with the pressure of the equation of state. The
   * transport-velocity shift is undone where the support is cut (within a cutoff of the far end): there Σ∇W points out
   * of the domain and would carry the last column out by half a spacing per step (SPHinXsys shifts only the particles
   * its open-boundary indication leaves in the bulk).
   */
  private outletBuffersReady(): void {
    const f = this.sim.fluid;
    const { rho0, c0 } = this.sim.options;
    const cutoff = this.sim.kernel.cutoff;
    for (let i = 0; i < f.count; i++) {
      const k = outletOfTag(this.tag[i]!);
      if (k < 0) continue;
      const r = this.keptRho[i]!;
      f.rho[i] = r;
      f.p[i] = c0 * c0 * (r - rho0);
      f.vol[i] = f.mass[i]! / r;
      const p = this.outlets[k]!;
      const x = this.keptPosition[3 * i]!;
      const y = this.keptPosition[3 * i + 1]!;
      const z = this.keptPosition[3 * i + 2]!;
      const s = (x - p.cx) * p.dx + (y - p.cy) * p.dy + (z - p.cz) * p.dz;
      if (s < p.length - cutoff) continue;
      f.x[i] = x;
      f.y[i] = y;
      f.z[i] = z;
    }
  }

  /**
   * Σ_j V_j ∇W_ij over the neighbours present (fluid and wall) of every outlet-buffer particle, at the advection
   * step's geometry. Near the buffer's far end neighbours are missing; at the outlet pressure p_b they would add
   * (q_i + p_b) K_i / ρ_i to the acceleration, with q_i the fluid's own pair term (p_i, or |p_i| under tensile-instability
   * control): the pair sum completed, so that p_b is felt through the missing neighbours only (SPHinXsys's
   * `PressureCondition` adds 2 p_b K_i / ρ_i, the same where p_i = p_b).
   */
  private outletKernelSums(): void {
    const { fluid: f, wall, inner, contact } = this.sim;
    const K = this.kernelSum;
    for (let i = 0; i < f.count; i++) {
      if (outletOfTag(this.tag[i]!) < 0) continue;
      let sx = 0;
      let sy = 0;
      let sz = 0;
      for (let k = inner.start[i]!; k < inner.end[i]!; k++) {
        const d = inner.dw[k]! * f.vol[inner.j[k]!]!;
        sx += d * inner.ex[k]!;
        sy += d * inner.ey[k]!;
        sz += d * inner.ez[k]!;
      }
      for (let k = contact.start[i]!; k < contact.end[i]!; k++) {
        const d = contact.dw[k]! * wall.vol[contact.j[k]!]!;
        sx += d * contact.ex[k]!;
        sy += d * contact.ey[k]!;
        sz += d * contact.ez[k]!;
      }
      K[3 * i] = sx;
      K[3 * i + 1] = sy;
      K[3 * i + 2] = sz;
    }
  }

  /**
   * Over an acoustic step of `dt` s: each outlet-buffer particle's density relaxed towards the outlet's (time constant
   * `OUTLET_RELAXATION` buffer lengths over c₀), then the missing neighbours' pressure force (see `outletKernelSums`).
   * The relaxation is not SPHinXsys's: without it the product's run (an aortic outlet, diastole) went unstable in the
   * buffer (docs/decisions/sph-outlet-buffer-fill.md, D). SPHinXsys's `PressureCondition` also projects the buffer's
   * velocity on the outlet's axis; that fed the same instability there and is left out.
   */
  private outletPressureForce(dt: number, time: number): void {
    const f = this.sim.fluid;
    const K = this.kernelSum;
    const { rho0, c0, tensileControl } = this.sim.options;
    const pb = this.outlets.map((p) => waveformValue(p.pressure, time));
    const keep = this.outlets.map((p) => Math.exp(-(dt * c0) / (OUTLET_RELAXATION * p.length)));
    for (let i = 0; i < f.count; i++) {
      const k = outletOfTag(this.tag[i]!);
      if (k < 0) continue;
      const rb = rho0 + pb[k]! / (c0 * c0);
      const r = rb + (f.rho[i]! - rb) * keep[k]!;
      f.rho[i] = r;
      const pi = c0 * c0 * (r - rho0);
      f.p[i] = pi;
      f.vol[i] = f.mass[i]! / r;
      const qi = tensileControl && pi < 0 ? -pi : pi;
      const c = ((qi + pb[k]!) * dt) / r;
      f.vx[i] = f.vx[i]! + c * K[3 * i]!;
      f.vy[i] = f.vy[i]! + c * K[3 * i + 1]!;
      f.vz[i] = f.vz[i]! + c * K[3 * i + 2]!;
    }
  }

  /** One advection step towards `endTime` (s) with the open boundaries; records its mass balance. */
  step(endTime: number): void {
    const sim = this.sim;
    const before = sim.counters.time;
    const moved = this.exchange();
    const outlets = this.outlets.length > 0;
    if (outlets) this.keepOutletBuffers();
    this.elapsed = 0;
    sim.advectionStep(endTime, {
      forcesReady: () => {
        this.imposeInlets(0, before);
        if (outlets) {
          this.outletBuffersReady();
          this.outletKernelSums();
        }
      },
      acoustic: (dt) => {
        this.elapsed += dt;
        const time = before + this.elapsed;
        this.imposeInlets(dt, time);
        if (outlets) this.outletPressureForce(dt, time);
      },
    });
    this.elapsed = 0;
    const inside = this.interiorMass();
    const inflow = moved.inflow.reduce((a, b) => a + b, 0);
    const outflow = moved.outflow.reduce((a, b) => a + b, 0);
    moved.inflow.forEach((m, k) => (this.totals.inflow[k] = this.totals.inflow[k]! + m));
    moved.backflow.forEach((m, k) => (this.totals.backflow[k] = this.totals.backflow[k]! + m));
    moved.outflow.forEach((m, k) => (this.totals.outflow[k] = this.totals.outflow[k]! + m));
    this.totals.removed += moved.removed;
    this.history.push({
      time: sim.counters.time,
      dt: sim.counters.time - before,
      inflow: moved.inflow,
      backflow: moved.backflow,
      outflow: moved.outflow,
      removed: moved.removed,
      refilled: moved.refilled,
      inside,
      imbalance: inside - this.inside - inflow + outflow,
      ...this.crossedMassFields(),
      inletRate: this.inlets.map((p) => this.planeRate(p, 1)),
      outletRate: this.outlets.map((p) => this.planeRate(p, -1)),
    });
    this.inside = inside;
  }

  /**
   * Cumulative mass through each inlet and outlet plane since the start, kg, as a continuous function of the particle
   * positions: the counted crossings (`totals`) plus, for an inlet, each emitter's and each returned particle's mass ×
   * the fraction of the buffer it has travelled ((s + length)/length: it is released, and counted, when that reaches 1;
   * returned fluid is counted out as it crosses back, at a fraction of 1) and, for an outlet, each
   * interior particle's mass × min(1, (s + a)/a) from a = the buffer length before the plane (counted once moved into
   * the buffer). Each
   * term drops by m as the count rises by m, so the sum moves smoothly; over a window its difference is the mass that
   * crossed without the count's jitter (in 3D the emitters of a ring move in step and are released together).
   */
  crossedMass(): { inflow: number[]; outflow: number[] } {
    const f = this.sim.fluid;
    const inflow = [...this.totals.inflow];
    const outflow = [...this.totals.outflow];
    for (let e = 0; e < this.emitSlot.length; e++) {
      const k = this.emitInlet[e]!;
      const p = this.inlets[k]!;
      const phase = Math.min(1, Math.max(0, (this.emitS[e]! + p.length) / p.length));
      inflow[k] = inflow[k]! + f.mass[this.emitSlot[e]!]! * phase;
    }
    for (let i = 0; i < f.count; i++) {
      const b = inletOfTag(this.tag[i]!);
      if (b < 0) continue;
      const p = this.inlets[b]!;
      const phase = Math.min(1, Math.max(0, (this.local(p, i).s + p.length) / p.length));
      inflow[b] = inflow[b]! + f.mass[i]! * phase;
    }
    for (let i = 0; i < f.count; i++) {
      if (this.tag[i] !== INTERIOR) continue;
      for (let k = 0; k < this.outlets.length; k++) {
        const p = this.outlets[k]!;
        const { s, r } = this.local(p, i);
        if (s <= -p.length || r >= p.radius) continue;
        // Past the plane but not yet moved into the buffer (that happens at the next step's start): fully counted.
        outflow[k] = outflow[k]! + f.mass[i]! * Math.min(1, (s + p.length) / p.length);
        break;
      }
    }
    return { inflow, outflow };
  }

  private crossedMassFields(): { inflowCumulative: number[]; outflowCumulative: number[] } {
    const { inflow, outflow } = this.crossedMass();
    return { inflowCumulative: inflow, outflowCumulative: outflow };
  }

  /** The boundary's state for a checkpoint (with the fluid's fields, count and ids; `CaseSimulation.checkpoint`). */
  state(): PackedArray[] {
    const n = this.sim.fluid.count;
    const totals = new Float64Array([
      this.inside,
      this.totals.removed,
      ...this.totals.inflow,
      ...this.totals.outflow,
      ...this.totals.backflow,
    ]);
    return [
      { name: 'open.tag', data: this.tag.slice(0, n) },
      { name: 'open.emitSlot', data: this.emitSlot.slice() },
      { name: 'open.emitS', data: this.emitS.slice() },
      { name: 'open.totals', data: totals },
    ];
  }

  /** Restores `state()` after the fluid's count has been set; throws if it does not fit this boundary. */
  restore(arrays: ReadonlyMap<string, Float64Array | Int32Array>): void {
    const n = this.sim.fluid.count;
    const get = (name: string, length: number): Float64Array | Int32Array => {
      const a = arrays.get(name);
      if (!a || a.length !== length) throw new Error(`the checkpoint does not fit this case ('${name}')`);
      return a;
    };
    this.tag.set(get('open.tag', n));
    this.emitSlot.set(get('open.emitSlot', this.emitSlot.length));
    this.emitS.set(get('open.emitS', this.emitS.length));
    const ni = this.inlets.length;
    const no = this.outlets.length;
    // Checkpoints written before inlets took back returned fluid have no backflow totals: they count from zero.
    const old = arrays.get('open.totals')?.length === 2 + ni + no;
    const t = get('open.totals', old ? 2 + ni + no : 2 + 2 * ni + no);
    this.inside = t[0]!;
    this.totals.removed = t[1]!;
    this.inlets.forEach((_, k) => (this.totals.inflow[k] = t[2 + k]!));
    this.outlets.forEach((_, k) => (this.totals.outflow[k] = t[2 + ni + k]!));
    this.inlets.forEach((_, k) => (this.totals.backflow[k] = old ? 0 : t[2 + ni + no + k]!));
  }

  /**
   * Flow rate through the plane 2 dp inside the domain from `p` (`inward` = +1 for an inlet, −1 for an outlet), so
   * that the hat sees fluid only: the outlet buffer thins towards its end and would bias a hat centred on the plane.
   */
  private planeRate(p: Plane, inward: number): number {
    const f = this.sim.fluid;
    const a = 2 * this.sim.options.dp * inward;
    const centre = [p.cx + a * p.dx, p.cy + a * p.dy, p.cz + a * p.dz] as const;
    return planeFlowRate(f, centre, [p.dx, p.dy, p.dz], this.sim.options.dp, p.radius);
  }

  /** Runs to `endTime` (s), calling `onStep` after every advection step. */
  run(endTime: number, onStep?: (counters: FluidCounters) => void): void {
    runSync(this, endTime, onStep);
  }

  /** `run` with progress and cancellation (see `WeaklyCompressibleFluid.runAsync`). */
  runAsync(endTime: number, options: RunOptions<FluidCounters> = {}): Promise<RunStatus> {
    return runAsync(this, endTime, options);
  }
}
