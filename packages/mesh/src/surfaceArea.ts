import type { TriangleMesh } from './types';

/** Total surface area of a triangle mesh, mm² (for positions in mm): the sum of ½|AB × AC| over triangles. */
export function surfaceArea_mm2(mesh: TriangleMesh): number {
  const p = mesh.positions;
  const idx = mesh.indices;
  let sum = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = (idx[t] as number) * 3;
    const b = (idx[t + 1] as number) * 3;
    const c = (idx[t + 2] as number) * 3;
    const ax = p[a] as number;
    const ay = p[a + 1] as number;
    const az = p[a + 2] as number;
    const ux = (p[b] as number) - ax;
    const uy = (p[b + 1] as number) - ay;
    const uz = (p[b + 2] as number) - az;
    const vx = (p[c] as number) - ax;
    const vy = (p[c + 1] as number) - ay;
    const vz = (p[c + 2] as number) - az;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    sum += Math.sqrt(nx * nx + ny * ny + nz * nz);
  }
  return sum / 2;
}
