import type { TriangleMesh } from './types';
import { triangleMeasures } from './triangleMeasures';

/**
 * Signed volume enclosed by a closed triangle mesh, mm³ (for positions in mm), by the divergence theorem:
 * Σ (a − o)·((b − o) × (c − o)) / 6 over triangles, with o the first vertex to limit cancellation.
 * Positive for an outward-oriented closed surface; meaningless for an open one.
 */
export function enclosedVolume_mm3(mesh: TriangleMesh): number {
  return triangleMeasures(mesh).signedVolume_mm3;
}
