import type { TriangleMesh } from './types';
import { triangleMeasures } from './triangleMeasures';

/** Total surface area of a triangle mesh, mm² (for positions in mm): the sum of ½|AB × AC| over triangles. */
export function surfaceArea_mm2(mesh: TriangleMesh): number {
  return triangleMeasures(mesh).surfaceArea_mm2;
}
