import { loftIndices, loftRingVertex, loftVertexCount, type LoftOptions, type TriangleMesh64 } from '@insilico/mesh';
import { writeFramePoint, type LocalFrame } from './localFrame';

/** Vertices around a valve annulus disc. */
export const ANNULUS_RING_SIZE = 96;
/** Thickness of an annulus disc along its normal, mm (the annulus plane is its mid-plane). */
export const ANNULUS_THICKNESS_MM = 1;

/**
 * A valve annulus as a thin closed elliptical disc (mm) centred on `frame.origin` in the plane (u, v), its
 * diameter `majorDiameter_mm` along u and `minorDiameter_mm` along v. The polygon is scaled in-plane after
 * tessellation so that the perimeter of the mid-plane section equals `perimeter_mm` exactly (the inscribed
 * polygon alone would fall short by ≈ 0.02 %).
 */
export function annulusDiscMesh(
  frame: LocalFrame,
  majorDiameter_mm: number,
  minorDiameter_mm: number,
  perimeter_mm: number,
): TriangleMesh64 {
  const n = ANNULUS_RING_SIZE;
  const a = majorDiameter_mm / 2;
  const b = minorDiameter_mm / 2;
  let polygon = 0;
  for (let i = 0; i < n; i++) {
    const t0 = (2 * Math.PI * i) / n;
    const t1 = (2 * Math.PI * (i + 1)) / n;
    polygon += Math.hypot(a * (Math.cos(t1) - Math.cos(t0)), b * (Math.sin(t1) - Math.sin(t0)));
  }
  const k = perimeter_mm / polygon;
  const options: LoftOptions = { ringCount: 2, ringSize: n };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  const half = ANNULUS_THICKNESS_MM / 2;
  writeFramePoint(frame, 0, 0, -half, positions, 0);
  for (let r = 0; r < 2; r++) {
    const z = r === 0 ? -half : half;
    for (let i = 0; i < n; i++) {
      const t = (2 * Math.PI * i) / n;
      writeFramePoint(frame, k * a * Math.cos(t), k * b * Math.sin(t), z, positions, loftRingVertex(options, r, i) * 3);
    }
  }
  writeFramePoint(frame, 0, 0, half, positions, positions.length - 3);
  return { positions, indices: loftIndices(options) };
}
