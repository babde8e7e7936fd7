import type { TriangleMesh } from './types';

/** Per-triangle sums of a mesh, taken in one pass (positions in mm). */
export interface TriangleMeasures {
  /** Σ ½|AB × AC|, mm². */
  readonly surfaceArea_mm2: number;
  /**
   * Σ (a − o)·((b − o) × (c − o)) / 6 with o the first vertex (limits cancellation), mm³: by the divergence
   * theorem the enclosed volume of a closed surface, positive when it is oriented outwards; meaningless if open.
   */
  readonly signedVolume_mm3: number;
  /** Triangles whose edge cross product is exactly the zero vector (repeated or collinear corners). */
  readonly zeroAreaTriangles: number;
}

/** Surface area, signed enclosed volume and zero-area triangles of a mesh in one pass over its triangles. */
export function triangleMeasures(mesh: TriangleMesh): TriangleMeasures {
  const p = mesh.positions;
  const idx = mesh.indices;
  if (idx.length === 0) return { surfaceArea_mm2: 0, signedVolume_mm3: 0, zeroAreaTriangles: 0 };
  const ox = p[0] as number;
  const oy = p[1] as number;
  const oz = p[2] as number;
  let area = 0;
  let volume = 0;
  let zeroArea = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = (idx[t] as number) * 3;
    const b = (idx[t + 1] as number) * 3;
    const c = (idx[t + 2] as number) * 3;
    const ax = (p[a] as number) - ox;
    const ay = (p[a + 1] as number) - oy;
    const az = (p[a + 2] as number) - oz;
    const bx = (p[b] as number) - ox;
    const by = (p[b + 1] as number) - oy;
    const bz = (p[b + 2] as number) - oz;
    const cx = (p[c] as number) - ox;
    const cy = (p[c + 1] as number) - oy;
    const cz = (p[c + 2] as number) - oz;
    const ux = bx - ax;
    const uy = by - ay;
    const uz = bz - az;
    const vx = cx - ax;
    const vy = cy - ay;
    const vz = cz - az;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const twiceArea = Math.sqrt(nx * nx + ny * ny + nz * nz);
    area += twiceArea;
    if (twiceArea === 0) zeroArea++;
    volume += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  }
  return { surfaceArea_mm2: area / 2, signedVolume_mm3: volume / 6, zeroAreaTriangles: zeroArea };
}
