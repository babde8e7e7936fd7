import {
  loftIndices,
  loftRingVertex,
  loftVertexCount,
  type LoftOptions,
  type Vec3,
  type TriangleMesh64,
} from '@insilico/mesh';
import type { CardiacParameters } from '../population/types';
import { frameAt, writeFramePoint, type LocalFrame } from './localFrame';

/** Vertices per ring of the aortic root (divisible by 6: each sinus and its opposite commissure are vertices). */
export const ROOT_RING_SIZE = 48;

/** Heights along the root axis above the annulus plane (mm) at which the root's diameters are measured. */
export interface AorticRootLevels {
  readonly lvot_mm: number;
  readonly sinus_mm: number;
  readonly sinotubularJunction_mm: number;
  readonly ascendingAorta_mm: number;
  /** Top of the modelled ascending aorta (closed by a flat cap). */
  readonly top_mm: number;
}

/** The aortic root mesh with its measurement levels and landmark points (patient or heart frame, mm). */
export interface AorticRoot {
  readonly mesh: TriangleMesh64;
  readonly levels: AorticRootLevels;
  /** Deepest point of the right, left and non-coronary sinus at the sinus level. */
  readonly sinusPoints: readonly [Vec3, Vec3, Vec3];
  /** Left and right coronary ostia on the surface of their sinus at the patient's coronary heights. */
  readonly leftOstium: Vec3;
  readonly rightOstium: Vec3;
}

/** Angles of the right, left and non-coronary sinus centres in the root frame (from u towards v), rad. */
const SINUS_ANGLES = [0, (2 * Math.PI) / 3, (4 * Math.PI) / 3] as const;
const LVOT_DEPTH_MM = 10;
const ASCENDING_LENGTH_MM = 52;

const smooth = (t: number): number => t * t * (3 - 2 * t);

/** Polygon (x, y per vertex) of a circle whose polygon perimeter is π·diameter: perimeter-derived diameter exact. */
function circle(diameter_mm: number, out: Float64Array): Float64Array {
  const n = ROOT_RING_SIZE;
  const r = (Math.PI * diameter_mm) / (2 * n * Math.sin(Math.PI / n));
  for (let i = 0; i < n; i++) {
    out[2 * i] = r * Math.cos((2 * Math.PI * i) / n);
    out[2 * i + 1] = r * Math.sin((2 * Math.PI * i) / n);
  }
  return out;
}

/** Polygon of the annulus ellipse (major along u), scaled so its perimeter is `perimeter_mm`. */
function ellipse(major_mm: number, minor_mm: number, perimeter_mm: number, out: Float64Array): Float64Array {
  const n = ROOT_RING_SIZE;
  for (let i = 0; i < n; i++) {
    out[2 * i] = (major_mm / 2) * Math.cos((2 * Math.PI * i) / n);
    out[2 * i + 1] = (minor_mm / 2) * Math.sin((2 * Math.PI * i) / n);
  }
  let p = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    p += Math.hypot(
      (out[2 * j] as number) - (out[2 * i] as number),
      (out[2 * j + 1] as number) - (out[2 * i + 1] as number),
    );
  }
  const k = perimeter_mm / p;
  for (let i = 0; i < 2 * n; i++) out[i] = (out[i] as number) * k;
  return out;
}

/**
 * Three-lobed sinus section: r(θ) = r0·(1 + a_k cos²(1.5(θ − θ_k))) within ±60° of sinus k, r0 at the commissures.
 * Scaled after sampling so that the mean sinus-to-commissure chord through the centre equals `diameter_mm`.
 */
function trilobe(diameter_mm: number, amplitudes: readonly number[], out: Float64Array): Float64Array {
  const n = ROOT_RING_SIZE;
  for (let i = 0; i < n; i++) {
    const theta = (2 * Math.PI * i) / n;
    let r = 1;
    for (let k = 0; k < 3; k++) {
      let d = theta - (SINUS_ANGLES[k] as number);
      d -= 2 * Math.PI * Math.round(d / (2 * Math.PI));
      if (Math.abs(d) < Math.PI / 3) r += (amplitudes[k] as number) * Math.cos(1.5 * d) ** 2;
    }
    out[2 * i] = r * Math.cos(theta);
    out[2 * i + 1] = r * Math.sin(theta);
  }
  // Chord through the centre along sinus k: the vertex at θ_k plus the opposite vertex (θ_k + π, a commissure).
  let chord = 0;
  for (let k = 0; k < 3; k++) {
    const i = (k * n) / 3;
    const o = (i + n / 2) % n;
    chord +=
      Math.hypot(out[2 * i] as number, out[2 * i + 1] as number) +
      Math.hypot(out[2 * o] as number, out[2 * o + 1] as number);
  }
  const scale = diameter_mm / (chord / 3);
  for (let i = 0; i < 2 * n; i++) out[i] = (out[i] as number) * scale;
  return out;
}

/**
 * Aortic root and ascending aorta as one closed loft along the axis w of `frame` (origin = annulus centre, u = the
 * annulus major axis and the direction of the right coronary sinus): LVOT (circular, 10 mm below the annulus),
 * the annulus ellipse (its polygon perimeter = the patient's annulus perimeter), three sinus bulges
 * (`sinusAmplitudes`, relative), the sinotubular junction and a straight ascending aorta, with smooth blends
 * between flat bands. Each measured level sits in the middle of a band of two identical rings, so its section
 * is exactly the scaled key polygon: perimeter/π = LVOT, STJ and ascending diameters; the mean
 * sinus-to-commissure chord = sinus of Valsalva diameter.
 */
export function aorticRootMesh(
  c: CardiacParameters,
  frame: LocalFrame,
  sinusAmplitudes: readonly number[],
): AorticRoot {
  const n = ROOT_RING_SIZE;
  const hStj = c.sinotubularJunctionHeight_mm;
  const zSinus = Math.max(3, 0.5 * hStj);
  if (!(hStj - 1 > zSinus + 1.5)) throw new RangeError(`STJ height ${hStj} mm is too small for the root model`);
  const lvot = circle(c.lvotDiameter_mm, new Float64Array(2 * n));
  const annulus = ellipse(
    c.aorticAnnulusMajorDiameter_mm,
    c.aorticAnnulusMinorDiameter_mm,
    c.aorticAnnulusPerimeter_mm,
    new Float64Array(2 * n),
  );
  const sinus = trilobe(c.sinusOfValsalvaDiameter_mm, sinusAmplitudes, new Float64Array(2 * n));
  const stj = circle(c.sinotubularJunctionDiameter_mm, new Float64Array(2 * n));
  const asc = circle(c.ascendingAortaDiameter_mm, new Float64Array(2 * n));
  const top = hStj + ASCENDING_LENGTH_MM;
  // Rings: [z, from, to, blend weight of `to`].
  const rings: [number, Float64Array, Float64Array, number][] = [
    [-LVOT_DEPTH_MM, lvot, lvot, 0],
    [-6, lvot, lvot, 0],
    [-3, lvot, annulus, 0.5],
    [0, annulus, annulus, 0],
  ];
  const blend = (z0: number, z1: number, a: Float64Array, b: Float64Array, steps: number): void => {
    for (let s = 1; s < steps; s++) rings.push([z0 + ((z1 - z0) * s) / steps, a, b, smooth(s / steps)]);
  };
  blend(0, zSinus - 1, annulus, sinus, 3);
  rings.push([zSinus - 1, sinus, sinus, 0], [zSinus + 1, sinus, sinus, 0]);
  blend(zSinus + 1, hStj - 1, sinus, stj, 3);
  rings.push([hStj - 1, stj, stj, 0], [hStj + 1, stj, stj, 0]);
  blend(hStj + 1, hStj + 12, stj, asc, 2);
  for (let z = hStj + 12; z <= top + 1e-9; z += 8) rings.push([z, asc, asc, 0]);
  const options: LoftOptions = { ringCount: rings.length, ringSize: n };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  writeFramePoint(frame, 0, 0, -LVOT_DEPTH_MM, positions, 0);
  for (let r = 0; r < rings.length; r++) {
    const [z, a, b, t] = rings[r] as [number, Float64Array, Float64Array, number];
    for (let i = 0; i < n; i++) {
      const x = (1 - t) * (a[2 * i] as number) + t * (b[2 * i] as number);
      const y = (1 - t) * (a[2 * i + 1] as number) + t * (b[2 * i + 1] as number);
      writeFramePoint(frame, x, y, z, positions, loftRingVertex(options, r, i) * 3);
    }
  }
  writeFramePoint(frame, 0, 0, rings[rings.length - 1]?.[0] ?? top, positions, positions.length - 3);
  const mesh = { positions, indices: loftIndices(options) };

  /** Point on the mesh's axial edge of vertex `i` at height z (linear between the bracketing rings). */
  const onEdge = (i: number, z: number): Vec3 => {
    let r = 0;
    while (r < rings.length - 2 && (rings[r + 1]?.[0] as number) < z) r++;
    const z0 = rings[r]?.[0] as number;
    const z1 = rings[r + 1]?.[0] as number;
    const t = Math.min(1, Math.max(0, (z - z0) / (z1 - z0)));
    const p = loftRingVertex(options, r, i) * 3;
    const q = loftRingVertex(options, r + 1, i) * 3;
    return [
      (1 - t) * (positions[p] as number) + t * (positions[q] as number),
      (1 - t) * (positions[p + 1] as number) + t * (positions[q + 1] as number),
      (1 - t) * (positions[p + 2] as number) + t * (positions[q + 2] as number),
    ];
  };
  const sinusPoint = (k: number): Vec3 => {
    const i = (k * n) / 3;
    return frameAt(frame, sinus[2 * i] as number, sinus[2 * i + 1] as number, zSinus);
  };
  return {
    mesh,
    levels: {
      lvot_mm: -8,
      sinus_mm: zSinus,
      sinotubularJunction_mm: hStj,
      ascendingAorta_mm: hStj + 32,
      top_mm: top,
    },
    sinusPoints: [sinusPoint(0), sinusPoint(1), sinusPoint(2)],
    leftOstium: onEdge(n / 3, c.leftCoronaryHeight_mm),
    rightOstium: onEdge(0, c.rightCoronaryHeight_mm),
  };
}
