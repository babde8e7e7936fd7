import { loftIndices, loftRingVertex, loftVertexCount, type LoftOptions, type TriangleMesh64 } from '@insilico/mesh';
import type { BodySize } from '../population/types';
import { RIB_COUNT } from './organs';

/** Outer dimensions of the simplified thorax, mm (patient frame LPS, origin at the rib-cage centre). */
export interface ThoraxSize {
  /** Half the lateral width of the rib cage at its widest rib (rib centreline), mm. */
  readonly halfWidth_mm: number;
  /** Half the antero-posterior depth of the rib cage at its widest rib, mm. */
  readonly halfDepth_mm: number;
  /** Height of the rib cage from the first to the last rib, mm. */
  readonly height_mm: number;
}

/** Tube radius of a rib, mm. */
export const RIB_RADIUS_MM = 6;
const RIB_SEGMENTS = 96;
const RIB_TUBE = 12;

/**
 * Thorax dimensions from body size (ours, for a plausible scene rather than validated anatomy): width and
 * height scale with body height (chest width ≈ 18 % of height, rib-cage height ≈ 16 %), depth also with
 * √(BMI/25) (chest depth ≈ 12.6 % of height at BMI 25).
 */
export function thoraxSize(body: BodySize): ThoraxSize {
  const h = body.height_cm * 10;
  return {
    halfWidth_mm: 0.09 * h,
    halfDepth_mm: 0.063 * h * Math.sqrt(body.bmi_kg_m2 / 25),
    height_mm: 0.16 * h,
  };
}

/**
 * Rib cage as RIB_COUNT horizontal elliptical hoops, each a closed tube (a torus, Euler characteristic 0) of radius
 * RIB_RADIUS_MM, evenly spaced from the top (z = +height/2) to the bottom rib; the upper ribs are narrower.
 */
export function ribCageMesh(size: ThoraxSize): TriangleMesh64 {
  const one: LoftOptions = { ringCount: RIB_SEGMENTS, ringSize: RIB_TUBE, periodic: true };
  const perRib = loftVertexCount(one);
  const ribIndices = loftIndices(one);
  const positions = new Float64Array(perRib * RIB_COUNT * 3);
  const indices = new Uint32Array(ribIndices.length * RIB_COUNT);
  for (let k = 0; k < RIB_COUNT; k++) {
    const z = size.height_mm / 2 - (size.height_mm * k) / (RIB_COUNT - 1);
    const f = 0.62 + 0.38 * Math.min(1, (k + 1) / 5);
    const a = f * size.halfWidth_mm;
    const b = f * size.halfDepth_mm;
    const base = k * perRib;
    for (let j = 0; j < RIB_SEGMENTS; j++) {
      const u = (2 * Math.PI * j) / RIB_SEGMENTS;
      const cx = a * Math.cos(u);
      const cy = b * Math.sin(u);
      // Outward in-plane normal of the centreline ellipse.
      let nx = b * Math.cos(u);
      let ny = a * Math.sin(u);
      const l = Math.hypot(nx, ny);
      nx /= l;
      ny /= l;
      for (let i = 0; i < RIB_TUBE; i++) {
        const v = (2 * Math.PI * i) / RIB_TUBE;
        const p = (base + loftRingVertex(one, j, i)) * 3;
        positions[p] = cx + RIB_RADIUS_MM * Math.cos(v) * nx;
        positions[p + 1] = cy + RIB_RADIUS_MM * Math.cos(v) * ny;
        positions[p + 2] = z - RIB_RADIUS_MM * Math.sin(v);
      }
    }
    for (let t = 0; t < ribIndices.length; t++) indices[k * ribIndices.length + t] = base + (ribIndices[t] as number);
  }
  return { positions, indices };
}
