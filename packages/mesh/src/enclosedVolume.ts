import type { TriangleMesh } from './types';

/**
 * Signed volume enclosed by a closed triangle mesh, mm³ (for positions in mm), by the divergence theorem:
 * Σ (a − o)·((b − o) × (c − o)) / 6 over triangles, with o the first vertex to limit cancellation.
 * Positive for an outward-oriented closed surface; meaningless for an open one.
 */
export function enclosedVolume_mm3(mesh: TriangleMesh): number {
  const p = mesh.positions;
  const idx = mesh.indices;
  if (idx.length === 0) return 0;
  const ox = p[0] as number;
  const oy = p[1] as number;
  const oz = p[2] as number;
  let sum = 0;
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
    sum += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  }
  return sum / 6;
}
