import {
  ContactSimulation,
  elasticContactBody,
  rigidContactBody,
  type ContactBody,
  type ContactPairOptions,
} from './contact';
import { ParticleArrays, type Dimension } from './particles';
import type { ElasticSolid } from './solid';

/** The device's axis: a point on it and its direction (2D: the z axis through `origin`). */
export interface DeviceAxis {
  origin: readonly [number, number, number];
  /** Unit direction (normalised here); ignored in 2D. */
  direction?: readonly [number, number, number];
}

/** Settings of a device expansion. */
export interface DeviceExpansionOptions {
  /** The device, built on its nominal (expanded, stress-free) geometry: that is its reference configuration. */
  device: ElasticSolid;
  /** Initial particle spacing of the device, m. */
  dp: number;
  /** The device's axis. */
  axis: DeviceAxis;
  /** Crimped diameter over nominal diameter, 0 < s < 1: the device starts as a radial scale s of its geometry. */
  crimp: number;
  /** The anatomy it expands into: rigid walls (`rigidContactBody`) or elastic bodies, with contact settings. */
  anatomy?: readonly { body: ContactBody; contact?: ContactPairOptions }[];
  /**
   * Duration of a crimping phase before the expansion, s (default none). Without it the device starts crimped
   * geometrically (every point at the radial scale, with the matching deformation gradient): a state whose stresses
   * are not in equilibrium (the cross-section is compressed too, and the hoop stress has no radial stress to balance
   * it), which for a stiff device (GPa stresses) starts at km/s and can diverge. With it the device starts at its nominal,
   * stress-free shape and the sheath closes on it, from 1.02 × nominal to the crimped radius over `crimpTime` (a
   * smooth ramp), quasi-statically like the expansion; the anatomy's contact is off until the crimp is done (a device
   * larger than its anatomy overlaps it at the start).
   */
  crimpTime?: number;
  /** Duration of the controlled expansion, s (after the crimping, if any). */
  expansionTime: number;
  /** Duration of the free settling after release (the sheath gone), s (default expansionTime / 2). */
  releaseTime?: number;
  /**
   * Axial positions (m, along the axis from `origin`) where the diameter is measured (3D; default the middle). The
   * planes move with the device: each is read at its position plus the device's mean axial displacement
   * (`axialShift`), so a device sliding along the axis keeps being measured at the same place on it.
   */
  planes?: readonly number[];
  /** Contact stiffness factor of the sheath contact (default 1). */
  sheathStiffness?: number;
  /**
   * A uniform acceleration of the device after the release, m/s² (e.g. the pressure difference across a valve times
   * its area over the device's mass): ramped smoothly from zero over the first half of the release time, so the
   * released device must hold its place by friction (default none).
   */
  load?: readonly [number, number, number];
}

/** Figures of one recorded step of an expansion. */
export interface ExpansionRecord {
  /** Simulated time, s. */
  time: number;
  /** 'crimp' while the sheath crimps the device, 'expansion' while it opens, 'release' after. */
  phase: 'crimp' | 'expansion' | 'release';
  /** Mean outer diameter of the device at each plane, m. */
  diameter: number[];
  /** Ovality at each plane: (D_max − D_min)/D_mean over diameters through the axis, 12 directions. */
  ovality: number[];
  /** Peak von Mises stress in the device, Pa. */
  peakVonMises: number;
  /** Peak contact pressure on the anatomy, Pa, read on the anatomy's particles. */
  peakContactPressure: number;
  /**
   * The same peak read on the device's particles, Pa: the reaction of the anatomy's pair forces on the device's
   * outermost particles (`ContactPair.pressure('a')`), where the traction acts. The anatomy's reading spreads each
   * pair force over the anatomy particles within the kernel's reach of the device particle (the blur of the Hertz
   * flat, docs/validation.md) and over its own, possibly coarser, faces; the device's does not.
   */
  peakDevicePressure: number;
  /** Total normal contact force on the anatomy, N (N/m in 2D). */
  contactForce: number;
  /**
   * Line load on the anatomy, N/m: the total normal contact force over the length of the contact line about the
   * axis, 2π (r̄ − dp/2) with r̄ the force-weighted mean distance of the loaded anatomy particles from the axis (a
   * ring's contact circle, on the anatomy's surface half of the anatomy's spacing dp in front of its outermost
   * particles). Unlike the peak contact pressure (a per-particle value that grows as the spacing shrinks while
   * the contact is narrower than a particle; docs/decisions/solid-contact-pressure.md) it converges. 2D (forces per unit
   * depth): the mean contact pressure over the circle, Pa (a shrink fit's interface pressure). Zero without contact.
   */
  lineLoad: number;
  /** Mean displacement of the device along the axis from its start, m (its migration, e.g. under `load`; 3D). */
  axialShift: number;
}

/**
 * Quasi-static expansion of a crimped device (issue 15 item 5), in two or three phases:
 * 0. **Crimp** (with `crimpTime`): the device starts at its nominal, stress-free shape; the sheath closes on it from
 *    1.02 × nominal to the crimped radius `crimp` × nominal over `crimpTime`; no contact with the anatomy yet.
 * 1. **Expansion**: the device starts crimped (without `crimpTime`: every point moved to a radial scale `crimp` of its
 *    nominal position about the axis, with the matching deformation gradient F = s(I − a⊗a) + a⊗a), so it pushes
 *    outwards. A rigid sheath (three layers of particles around it, in contact with the device only) holds it and
 *    opens slowly, its inner radius following a smooth ramp from the crimped outer radius to 1.15 × nominal over
 *    `expansionTime`: the device follows the sheath until the anatomy stops it. Quasi-static by the device's mass
 *    damping (its `damping` option), which the caller sets (about the lowest ring mode's angular frequency).
 * 2. **Release**: the sheath is gone; the device settles against the anatomy for `releaseTime`.
 * The device's outer radius and its diameter are measured on its outermost particles plus dp/2.
 */
export class DeviceExpansion {
  readonly simulation: ContactSimulation;
  readonly device: ElasticSolid;
  readonly records: ExpansionRecord[] = [];
  readonly expansionTime: number;
  readonly releaseTime: number;
  /** Duration of the crimping phase, s (0: the geometric crimp). */
  readonly crimpTime: number;
  private readonly deviceBody: ContactBody;
  private readonly sheath: ParticleArrays;
  private readonly sheathRadius0: Float64Array;
  /**
   * Axial coordinate of each sheath particle (fixed: taken from its built position, not from its current one, so the
   * sheath's position is a function of the time alone and a restart places it bit for bit).
   */
  private readonly sheathAlong: Float64Array;
  private readonly axis: { o: [number, number, number]; a: [number, number, number] };
  private readonly dim: Dimension;
  private readonly dp: number;
  private readonly planes: number[];
  private readonly load: readonly [number, number, number] | null;
  private readonly loadAcceleration: Float64Array | null;
  /** Outer radius of the crimped and of the nominal device, m. */
  readonly crimpedRadius: number;
  readonly nominalRadius: number;

  constructor(options: DeviceExpansionOptions) {
    const { device, dp, crimp } = options;
    if (!(crimp > 0 && crimp <= 1)) throw new RangeError('the crimp ratio must be in (0, 1]');
    if (!(options.expansionTime > 0)) throw new RangeError('the expansion time must be positive');
    if (!((options.crimpTime ?? 0) >= 0)) throw new RangeError('the crimp time must be 0 or more');
    const p = device.particles;
    this.dim = p.dim;
    this.dp = dp;
    this.device = device;
    const d = options.axis.direction ?? [0, 0, 1];
    const len = Math.hypot(...d);
    const a: [number, number, number] = this.dim === 2 ? [0, 0, 1] : [d[0] / len, d[1] / len, d[2] / len];
    this.axis = { o: [...options.axis.origin], a };
    this.expansionTime = options.expansionTime;
    this.crimpTime = options.crimpTime ?? 0;
    this.releaseTime = options.releaseTime ?? options.expansionTime / 2;
    this.deviceBody = elasticContactBody(device, dp);
    // Nominal outer radius and length along the axis.
    let nominal = 0;
    let sMin = Infinity;
    let sMax = -Infinity;
    for (let i = 0; i < p.count; i++) {
      const [s, r] = this.cylindrical(p.x[i]!, p.y[i]!, p.z[i]!);
      nominal = Math.max(nominal, r + 0.5 * dp);
      sMin = Math.min(sMin, s);
      sMax = Math.max(sMax, s);
    }
    this.nominalRadius = nominal;
    this.crimpedRadius = crimp * nominal;
    this.planes = this.dim === 2 ? [0] : [...(options.planes ?? [0.5 * (sMin + sMax)])];
    // Crimp: x = o + (x⁰·a)a + s (x⁰ − o − (x⁰·a)a); F = s(I − a⊗a) + a⊗a. None with a crimping phase.
    const geometricCrimp = this.crimpTime > 0 ? 0 : p.count;
    for (let i = 0; i < geometricCrimp; i++) {
      const rx = p.x[i]! - this.axis.o[0];
      const ry = p.y[i]! - this.axis.o[1];
      const rz = p.z[i]! - this.axis.o[2];
      const along = rx * a[0] + ry * a[1] + rz * a[2];
      p.x[i] = this.axis.o[0] + along * a[0] + crimp * (rx - along * a[0]);
      p.y[i] = this.axis.o[1] + along * a[1] + crimp * (ry - along * a[1]);
      p.z[i] = this.axis.o[2] + along * a[2] + crimp * (rz - along * a[2]);
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) {
          device.F[9 * i + 3 * r + c] = (r === c ? crimp : 0) + (1 - crimp) * a[r]! * a[c]!;
        }
      }
      p.rho[i] = device.material.rho0 / (crimp * crimp);
    }
    // The sheath: three layers of rings (2D) or rings stacked along the axis (3D) outside the crimped device.
    this.sheath = cylinderWall(this.dim, dp, this.crimpedRadius, this.axis, sMin - 3 * dp, sMax + 3 * dp);
    this.sheathRadius0 = new Float64Array(this.sheath.count);
    this.sheathAlong = new Float64Array(this.sheath.count);
    for (let i = 0; i < this.sheath.count; i++) {
      const [along, radius] = this.cylindrical(this.sheath.x[i]!, this.sheath.y[i]!, this.sheath.z[i]!);
      this.sheathRadius0[i] = radius;
      this.sheathAlong[i] = along;
    }
    const bodies: ContactBody[] = [this.deviceBody, rigidContactBody(this.sheath, dp)];
    const contacts = [{ a: 0, b: 1, stiffness: options.sheathStiffness ?? 1 }];
    for (const item of options.anatomy ?? []) {
      bodies.push(item.body);
      contacts.push({ ...item.contact, a: 0, b: bodies.length - 1, stiffness: item.contact?.stiffness ?? 1 });
    }
    this.simulation = new ContactSimulation(bodies, contacts);
    this.load = options.load && options.load.some((v) => v !== 0) ? options.load : null;
    this.loadAcceleration = this.load ? new Float64Array(3 * p.count) : null;
    this.simulation.baseAcceleration[0] = this.loadAcceleration;
    this.simulation.beforeStep = (time, dt) => {
      this.moveSheath(time, dt);
      // After the release the sheath is ten nominal radii away: no pair to look for.
      this.simulation.pairs[0]!.enabled = time < this.releaseStart;
      // While the sheath crimps the device it may overlap the anatomy: no contact with it until crimped.
      for (const pair of this.simulation.pairs.slice(1)) pair.enabled = time >= this.crimpTime;
      this.applyLoad(time);
    };
  }

  /** Time of the release (the end of the crimping and the expansion), s. */
  get releaseStart(): number {
    return this.crimpTime + this.expansionTime;
  }

  /** The release load's factor at time t: 0 before the release, a smooth ramp to 1 over half the release time. */
  loadFactor(t: number): number {
    if (t < this.releaseStart) return 0;
    const q = Math.min(1, (t - this.releaseStart) / (0.5 * this.releaseTime));
    return q * q * (3 - 2 * q);
  }

  /** Sets the device's load acceleration for the step starting at `time`. */
  private applyLoad(time: number): void {
    const a = this.loadAcceleration;
    const load = this.load;
    if (!a || !load) return;
    const f = this.loadFactor(time);
    for (let i = 0; i < a.length; i += 3) {
      a[i] = f * load[0];
      a[i + 1] = f * load[1];
      a[i + 2] = f * load[2];
    }
  }

  /** Mean axial displacement of the device's particles from their reference (crimping moves them radially), m. */
  private axialShift(): number {
    const p = this.device.particles;
    const d = this.device;
    const a = this.axis.a;
    let sum = 0;
    for (let i = 0; i < p.count; i++) {
      sum += (p.x[i]! - d.x0[i]!) * a[0] + (p.y[i]! - d.y0[i]!) * a[1] + (p.z[i]! - d.z0[i]!) * a[2];
    }
    return p.count > 0 ? sum / p.count : 0;
  }

  /** Number of planes the diameter is measured at (one in 2D). */
  get planeCount(): number {
    return this.planes.length;
  }

  /** Axial coordinate and distance from the axis of a point. */
  private cylindrical(x: number, y: number, z: number): [number, number] {
    const { o, a } = this.axis;
    const rx = x - o[0];
    const ry = y - o[1];
    const rz = z - o[2];
    const s = rx * a[0] + ry * a[1] + rz * a[2];
    return [s, Math.hypot(rx - s * a[0], ry - s * a[1], rz - s * a[2])];
  }

  /**
   * Sheath inner radius at time t, m: while crimping, a smooth ramp from 1.02 × nominal down to the crimped radius;
   * then a smooth ramp from the crimped radius to 1.15 × nominal; after the release far away.
   */
  sheathRadius(t: number): number {
    const smooth = (q: number) => q * q * (3 - 2 * q);
    if (t < this.crimpTime) {
      const start = 1.02 * this.nominalRadius;
      return start + smooth(t / this.crimpTime) * (this.crimpedRadius - start);
    }
    if (t >= this.releaseStart) return 10 * this.nominalRadius;
    const ramp = smooth((t - this.crimpTime) / this.expansionTime);
    return this.crimpedRadius + ramp * (1.15 * this.nominalRadius - this.crimpedRadius);
  }

  /** Places the sheath at its radius at the end of the step, with the velocity that gets it there. */
  private moveSheath(time: number, dt: number): void {
    const r0 = this.sheathRadius(time);
    const r1 = this.sheathRadius(time + dt);
    const speed = time + dt >= this.releaseStart || dt <= 0 ? 0 : (r1 - r0) / dt;
    const s = this.sheath;
    const { o, a } = this.axis;
    const shift = r0 - this.crimpedRadius;
    for (let i = 0; i < s.count; i++) {
      // The ring particle's unit radial direction is its normal, negated (normals point inwards).
      const ex = -s.nx[i]!;
      const ey = -s.ny[i]!;
      const ez = -s.nz[i]!;
      const radius = this.sheathRadius0[i]! + shift;
      const along = this.sheathAlong[i]!;
      s.x[i] = o[0] + along * a[0] + radius * ex;
      s.y[i] = o[1] + along * a[1] + radius * ey;
      s.z[i] = o[2] + along * a[2] + radius * ez;
      s.vx[i] = speed * ex;
      s.vy[i] = speed * ey;
      s.vz[i] = speed * ez;
    }
  }

  /** Runs every phase, recording the figures `records` times in each (default 20). */
  run(records = 20): ExpansionRecord[] {
    const total = this.releaseStart + this.releaseTime;
    for (let k = 1; this.crimpTime > 0 && k <= records; k++) {
      this.simulation.run((this.crimpTime * k) / records);
      this.record();
    }
    for (let k = 1; k <= records; k++) {
      this.simulation.run(this.crimpTime + (this.expansionTime * k) / records);
      this.record();
    }
    for (let k = 1; k <= records; k++) {
      this.simulation.run(this.releaseStart + (this.releaseTime * k) / records);
      this.record();
    }
    if (this.simulation.counters.time < total * (1 - 1e-9)) this.simulation.run(total);
    return this.records;
  }

  /** The figures of the current state: the last record when it is of this time, else a new one. */
  current(): ExpansionRecord {
    const last = this.records.at(-1);
    return last && last.time === this.simulation.counters.time ? last : this.record();
  }

  /** Measures and stores the figures of the current state. */
  record(): ExpansionRecord {
    const p = this.device.particles;
    const body = this.deviceBody;
    const bins = 24;
    const diameter: number[] = [];
    const ovality: number[] = [];
    const axialShift = this.dim === 3 ? this.axialShift() : 0;
    for (const measured of this.planes) {
      // The plane moves with the device (`planes`).
      const plane = measured + axialShift;
      const sum = new Float64Array(bins);
      const count = new Float64Array(bins);
      let total = 0;
      let n = 0;
      for (let i = 0; i < p.count; i++) {
        if (body.outer[i] !== 1) continue;
        const [s, r] = this.cylindrical(p.x[i]!, p.y[i]!, p.z[i]!);
        if (this.dim === 3 && Math.abs(s - plane) > this.dp) continue;
        // Only particles facing away from the axis (the outer surface, not the lumen side).
        const [rx, ry, rz] = this.radial(p.x[i]!, p.y[i]!, p.z[i]!);
        const n0 = body.normals0;
        const [x0, y0, z0] = [this.device.x0[i]!, this.device.y0[i]!, this.device.z0[i]!];
        const [ux, uy, uz] = this.radial(x0, y0, z0);
        if (n0[3 * i]! * ux + n0[3 * i + 1]! * uy + n0[3 * i + 2]! * uz < 0.5) continue;
        const radius = r + 0.5 * this.dp;
        total += radius;
        n++;
        const angle = this.angle(rx, ry, rz);
        const bin = Math.min(bins - 1, Math.floor(((angle + Math.PI) / (2 * Math.PI)) * bins));
        sum[bin] = sum[bin]! + radius;
        count[bin]!++;
      }
      const mean = n > 0 ? (2 * total) / n : 0;
      diameter.push(mean);
      let dMin = Infinity;
      let dMax = 0;
      for (let b = 0; b < bins / 2; b++) {
        const c = b + bins / 2;
        if (count[b] === 0 || count[c] === 0) continue;
        const dd = sum[b]! / count[b]! + sum[c]! / count[c]!;
        dMin = Math.min(dMin, dd);
        dMax = Math.max(dMax, dd);
      }
      ovality.push(mean > 0 && dMax > 0 ? (dMax - dMin) / mean : 0);
    }
    let peakVonMises = 0;
    for (let i = 0; i < p.count; i++) peakVonMises = Math.max(peakVonMises, this.device.vonMisesStress(i));
    let peakContactPressure = 0;
    let contactForce = 0;
    let forceRadius = 0;
    const onDevice = new Float64Array(p.count);
    for (const pair of this.simulation.pairs.slice(1)) {
      const reaction = pair.pressure('a');
      for (let i = 0; i < p.count; i++) onDevice[i] = onDevice[i]! + reaction[i]!;
      const pressure = pair.pressure('b');
      const q = pair.b.particles;
      for (let s = 0; s < q.count; s++) {
        peakContactPressure = Math.max(peakContactPressure, pressure[s]!);
        const force = pressure[s]! * q.vol[s]! ** ((this.dim - 1) / this.dim);
        contactForce += force;
        // The anatomy's loaded surface lies half of its own spacing inside its outermost particles (towards the
        // device): the anatomy's spacing may be coarser than the device's (an elastic wall's own dp).
        if (force > 0) forceRadius += force * (this.cylindrical(q.x[s]!, q.y[s]!, q.z[s]!)[1] - 0.5 * pair.b.dp);
      }
    }
    const lineRadius = contactForce > 0 ? forceRadius / contactForce : 0;
    let peakDevicePressure = 0;
    for (let i = 0; i < p.count; i++) peakDevicePressure = Math.max(peakDevicePressure, onDevice[i]!);
    const lineLoad = lineRadius > 0 ? contactForce / (2 * Math.PI * lineRadius) : 0;
    const rec: ExpansionRecord = {
      time: this.simulation.counters.time,
      phase:
        this.simulation.counters.time < this.crimpTime
          ? 'crimp'
          : this.simulation.counters.time <= this.releaseStart * (1 + 1e-12)
            ? 'expansion'
            : 'release',
      diameter,
      ovality,
      peakVonMises,
      peakContactPressure,
      peakDevicePressure,
      contactForce,
      lineLoad,
      axialShift,
    };
    this.records.push(rec);
    return rec;
  }

  /** Unit radial direction of a point (from the axis). */
  private radial(x: number, y: number, z: number): [number, number, number] {
    const { o, a } = this.axis;
    const rx = x - o[0];
    const ry = y - o[1];
    const rz = z - o[2];
    const s = rx * a[0] + ry * a[1] + rz * a[2];
    const v: [number, number, number] = [rx - s * a[0], ry - s * a[1], rz - s * a[2]];
    const len = Math.hypot(...v) || 1;
    return [v[0] / len, v[1] / len, v[2] / len];
  }

  /** Angle of a radial direction about the axis, in (−π, π]. */
  private angle(x: number, y: number, z: number): number {
    const a = this.axis.a;
    // A fixed frame (e1, e2) perpendicular to the axis.
    const t: [number, number, number] = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const d = t[0] * a[0] + t[1] * a[1] + t[2] * a[2];
    const e1 = [t[0] - d * a[0], t[1] - d * a[1], t[2] - d * a[2]];
    const l1 = Math.hypot(e1[0]!, e1[1]!, e1[2]!);
    const [e1x, e1y, e1z] = [e1[0]! / l1, e1[1]! / l1, e1[2]! / l1];
    const e2 = [a[1] * e1z - a[2] * e1y, a[2] * e1x - a[0] * e1z, a[0] * e1y - a[1] * e1x];
    return Math.atan2(x * e2[0]! + y * e2[1]! + z * e2[2]!, x * e1x + y * e1y + z * e1z);
  }
}

/**
 * Particles of a cylindrical shell of three layers, inner radius `radius`, about the axis, with normals pointing
 * towards the axis: rings of about dp spacing (2D: one set of rings; 3D: rings every dp from `s0` to `s1`).
 */
export function cylinderWall(
  dim: Dimension,
  dp: number,
  radius: number,
  axis: { o: readonly [number, number, number]; a: readonly [number, number, number] },
  s0 = 0,
  s1 = 0,
  layers = 3,
): ParticleArrays {
  const a = axis.a;
  const t: [number, number, number] = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = t[0] * a[0] + t[1] * a[1] + t[2] * a[2];
  const e1 = [t[0] - d * a[0], t[1] - d * a[1], t[2] - d * a[2]];
  const l1 = Math.hypot(e1[0]!, e1[1]!, e1[2]!);
  const u = [e1[0]! / l1, e1[1]! / l1, e1[2]! / l1];
  const v = [a[1] * u[2]! - a[2] * u[1]!, a[2] * u[0]! - a[0] * u[2]!, a[0] * u[1]! - a[1] * u[0]!];
  const slices = dim === 2 ? 1 : Math.max(1, Math.round((s1 - s0) / dp));
  const rings: [number, number][] = [];
  for (let k = 0; k < layers; k++) {
    const r = radius + (k + 0.5) * dp;
    rings.push([r, Math.max(3, Math.round((2 * Math.PI * r) / dp))]);
  }
  const total = rings.reduce((n, [, c]) => n + c, 0) * slices;
  const out = new ParticleArrays(dim, total);
  for (let sl = 0; sl < slices; sl++) {
    const s = dim === 2 ? 0 : s0 + (sl + 0.5) * ((s1 - s0) / slices);
    for (const [r, count] of rings) {
      const vol = (2 * Math.PI * r * dp * (dim === 3 ? (s1 - s0) / slices : 1)) / count;
      for (let m = 0; m < count; m++) {
        const th = (2 * Math.PI * (m + 0.5)) / count;
        const c = Math.cos(th);
        const sn = Math.sin(th);
        const ex = c * u[0]! + sn * v[0]!;
        const ey = c * u[1]! + sn * v[1]!;
        const ez = c * u[2]! + sn * v[2]!;
        const k = out.add(
          axis.o[0] + s * a[0] + r * ex,
          axis.o[1] + s * a[1] + r * ey,
          axis.o[2] + s * a[2] + r * ez,
          vol,
          1,
        );
        out.nx[k] = -ex;
        out.ny[k] = -ey;
        out.nz[k] = -ez;
      }
    }
  }
  return out;
}

/**
 * Particles of a ring (2D) or tube (3D) of inner radius `inner` and outer radius `outer` about the z axis through
 * `centre`, built of concentric rings of about dp spacing (a body-fitted surface, unlike a lattice's staircase);
 * 3D: rings every dp over `length` along z, centred on `centre`.
 */
export function ringParticles(
  dim: Dimension,
  dp: number,
  inner: number,
  outer: number,
  rho: number,
  centre: readonly [number, number, number] = [0, 0, 0],
  length = 0,
): ParticleArrays {
  const layers = Math.max(1, Math.round((outer - inner) / dp));
  const step = (outer - inner) / layers;
  const slices = dim === 2 ? 1 : Math.max(1, Math.round(length / dp));
  const dz = dim === 2 ? 1 : length / slices;
  const counts: [number, number][] = [];
  for (let k = 0; k < layers; k++) {
    const r = inner + (k + 0.5) * step;
    counts.push([r, Math.max(3, Math.round((2 * Math.PI * r) / dp))]);
  }
  const out = new ParticleArrays(dim, counts.reduce((n, [, c]) => n + c, 0) * slices);
  for (let sl = 0; sl < slices; sl++) {
    const z = dim === 2 ? 0 : centre[2] - 0.5 * length + (sl + 0.5) * dz;
    for (const [r, count] of counts) {
      const vol = (2 * Math.PI * r * step * dz) / count;
      for (let m = 0; m < count; m++) {
        const th = (2 * Math.PI * (m + 0.5)) / count;
        out.add(centre[0] + r * Math.cos(th), centre[1] + r * Math.sin(th), z, vol, rho);
      }
    }
  }
  return out;
}
