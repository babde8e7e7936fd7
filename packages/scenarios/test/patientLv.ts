import {
  DEFAULT_POPULATION_SEED,
  buildPatientMeshes,
  cineFrames,
  generatePatient,
  landmarkOf,
  organMesh,
  type SyntheticPatient,
} from '@insilico/anatomy';
import type { TriangleMesh, Vec3 } from '@insilico/mesh';
import {
  heartCycleMotion,
  type OpenBoundaryFluid,
  type VesselFlowOptions,
  type VesselOutlet,
  type WallMotionOptions,
} from '@insilico/sph';
import { ejectionTime } from '../src/inflow';
import { DEFAULT_HEART_RATE_BPM } from '../src/parameters';

// A patient's left ventricle with its wall moving through the patient's cine frames over a whole heart cycle
// (docs/decisions/sph-moving-walls.md, "A patient's heart cycle"): the blood pool of the 12 frames from end-diastole to
// end-systole spread over the ejection time, then back through the same frames over the filling time; blood leaves
// and re-enters through one pressure outlet across the ventricle a little below its base plane (the mitral and aortic
// openings lumped into one). The check: over the ejection the volume out of the outlet equals the volume the lumen on
// the apex side of the outlet plane loses (measured on the frame meshes, independent of the particles and of the
// interpolation), and it comes back over the filling. Used by movingWallPatient.test.ts and
// scripts/moving-wall-patient.ts.

/** Blood, Newtonian (issue 15 item 2): ρ kg/m³, μ Pa·s. */
export const RHO = 1060;
export const MU = 3.5e-3;

/** The outlet plane lies this many dp below the base plane: one 4 dp buffer and 1 dp of lumen beyond it. */
const PLANE_DEPTH_DP = 5;

export interface PatientLv {
  patient: SyntheticPatient;
  /** The blood pool at the cine frames, ED first, ES last (mm, the patient frame). */
  systole: TriangleMesh[];
  /** Heart cycle, s: 60 / heart rate, and the ejection time (Weissler's regression for the patient's sex). */
  period: number;
  ejection: number;
  /** The wall's motion over the cycle (the reference mesh is `systole[0]`). */
  motion: WallMotionOptions;
  /** The outlet plane's centre at spacing dp (m), mm; its unit normal, out of the ventricle (towards the base). */
  centreAt(dp: number): Vec3;
  normal: Vec3;
  /** Section radius of the outlet, mm: the widest the lumen is near the plane at any frame, plus `dp`. */
  radius(dp: number): number;
  /** Lumen volume on the apex side of the outlet plane, mm³, of the mesh `m` (a frame). */
  volumeBeforeOutlet(m: TriangleMesh, dp: number): number;
  /** Flow settings at spacing dp (m), sound speed `soundFactor` × the peak outflow speed (default 10). */
  options(dp: number, soundFactor?: number): VesselFlowOptions;
}

const dot = (a: readonly number[], b: readonly number[]): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

/**
 * Volume of the closed, outward-oriented mesh `m` on the side of the plane (point `c`, unit normal `n`) that `n`
 * points away from, in the mesh's units³. Divergence theorem with F = s n, s = (x − c)·n: div F = 1 and F = 0 on the
 * plane, so V = Σ over the mesh clipped to s ≤ 0 of ∫ s (n·ν) dA (each clipped facet a fan of triangles, s linear).
 */
export function volumeBehindPlane(m: TriangleMesh, c: Vec3, n: Vec3): number {
  const p = m.positions;
  const idx = m.indices;
  let volume = 0;
  const poly: number[][] = [];
  for (let t = 0; t < idx.length; t += 3) {
    const corners = [0, 1, 2].map((k) => {
      const v = 3 * idx[t + k]!;
      const x = [p[v]!, p[v + 1]!, p[v + 2]!];
      return { x, s: dot([x[0]! - c[0], x[1]! - c[1], x[2]! - c[2]], n) };
    });
    // Sutherland–Hodgman against s ≤ 0.
    poly.length = 0;
    for (let k = 0; k < 3; k++) {
      const a = corners[k]!;
      const b = corners[(k + 1) % 3]!;
      if (a.s <= 0) poly.push([...a.x, a.s]);
      if (a.s < 0 !== b.s < 0 && a.s !== b.s) {
        const f = a.s / (a.s - b.s);
        poly.push([...a.x.map((v, i) => v + f * (b.x[i]! - v)), 0]);
      }
    }
    for (let k = 1; k + 1 < poly.length; k++) {
      const a = poly[0]!;
      const b = poly[k]!;
      const d = poly[k + 1]!;
      const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
      const w = [d[0]! - a[0]!, d[1]! - a[1]!, d[2]! - a[2]!];
      const cross = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
      volume += (((a[3]! + b[3]! + d[3]!) / 3) * dot(cross, n)) / 2;
    }
  }
  return volume;
}

/** Patient `index` of the default population, heart rate `heartRate` bpm (default the product's resting rate). */
export function patientLv(index = 0, heartRate = DEFAULT_HEART_RATE_BPM): PatientLv {
  const patient = generatePatient(DEFAULT_POPULATION_SEED, index);
  const phases = cineFrames();
  const meshes = phases.map((phase) => buildPatientMeshes(patient, phase));
  const systole = meshes.map((m) => organMesh(m, 'lv_blood_pool'));
  const base = landmarkOf(meshes[0]!, 'lv_base');
  const normal = base.normal!;
  const period = 60 / heartRate;
  const ejection = ejectionTime(heartRate, patient.sex);
  const { motion } = heartCycleMotion(systole, { period, ejection });
  const centreAt = (dp: number): Vec3 => {
    const d = PLANE_DEPTH_DP * dp * 1e3;
    return [base.position[0] - d * normal[0], base.position[1] - d * normal[1], base.position[2] - d * normal[2]];
  };
  /** Largest distance from the outlet's axis of a vertex within 2 dp of the plane or beyond it, over the frames, mm. */
  const widest = (dp: number, frames: readonly TriangleMesh[]): number => {
    const c = centreAt(dp);
    let r = 0;
    for (const m of frames) {
      const q = m.positions;
      for (let v = 0; v < q.length; v += 3) {
        const x = [q[v]! - c[0], q[v + 1]! - c[1], q[v + 2]! - c[2]];
        const s = dot(x, normal);
        if (s < -2 * dp * 1e3) continue;
        r = Math.max(r, Math.hypot(x[0]! - s * normal[0], x[1]! - s * normal[1], x[2]! - s * normal[2]));
      }
    }
    return r;
  };
  const radius = (dp: number): number => widest(dp, systole) + dp * 1e3;
  const volumeBeforeOutlet = (m: TriangleMesh, dp: number): number => volumeBehindPlane(m, centreAt(dp), normal);
  return {
    patient,
    systole,
    period,
    ejection,
    motion,
    centreAt,
    normal,
    radius,
    volumeBeforeOutlet,
    options(dp, soundFactor = 10) {
      // Peak outflow speed: the half-cosine volume curve's peak flow π SV / (2 E) through the plane's section at
      // end-systole (the narrowest).
      const sv = (volumeBeforeOutlet(systole[0]!, dp) - volumeBeforeOutlet(systole.at(-1)!, dp)) * 1e-9;
      const narrowest = widest(dp, [systole.at(-1)!]) * 1e-3;
      const uRef = (Math.PI * sv) / (2 * ejection) / (Math.PI * narrowest * narrowest);
      const c = centreAt(dp);
      return {
        dp,
        rho0: RHO,
        mu: MU,
        uRef,
        c0: soundFactor * uRef,
        inlets: [],
        outlets: [
          {
            centre: [c[0] * 1e-3, c[1] * 1e-3, c[2] * 1e-3],
            direction: normal,
            radius: radius(dp) * 1e-3,
            pressure: 0,
          },
        ],
        motion,
      };
    },
  };
}

/**
 * Net mass out through the vessel's outlet `p` (its only one) since the start, kg, counted particle by particle: the boundary's
 * counted crossings (`totals`, net of backflow, taken at each step's start) plus the crossings of the last step, not
 * yet taken (interior particles past the plane within its section, less buffer particles back before it). Not the
 * smooth `crossedMass`: it also counts the fluid within a buffer length before the plane with a ramp weight, and that
 * content changes when the wall there moves (here, the ventricle's section narrows by about 20 %), which it would
 * count as flow (docs/validation.md, "Moving vessel wall").
 */
export function outletCrossings(open: OpenBoundaryFluid, p: VesselOutlet): number {
  const f = open.sim.fluid;
  const [cx, cy, cz] = p.centre;
  const d = p.direction;
  const len = Math.hypot(d[0], d[1], d[2]);
  const n = [d[0] / len, d[1] / len, d[2] / len];
  let out = open.totals.outflow[0]!;
  for (let i = 0; i < f.count; i++) {
    if (open.isEmitter(i) || open.isReturned(i)) continue;
    const x = [f.x[i]! - cx, f.y[i]! - cy, f.z[i]! - cz];
    const s = dot(x, n);
    const r = Math.hypot(x[0]! - s * n[0]!, x[1]! - s * n[1]!, x[2]! - s * n[2]!);
    if (open.isInterior(i)) {
      if (s >= 0 && r < p.radius) out += f.mass[i]!;
    } else if (s < 0) out -= f.mass[i]!;
  }
  return out;
}
