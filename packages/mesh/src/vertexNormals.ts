import type { TriangleMesh } from './types';

/**
 * Unit vertex normals (area-weighted average of the incident face normals) written into `out`
 * (length 3·V, Float32Array or Float64Array) and returned. Isolated vertices get (0, 0, 0).
 */
export function vertexNormals<T extends Float32Array | Float64Array>(mesh: TriangleMesh, out: T): T {
  const p = mesh.positions;
  const idx = mesh.indices;
  if (out.length !== p.length) throw new RangeError('vertexNormals: out must have the length of positions');
  out.fill(0);
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
    out[a] = (out[a] as number) + nx;
    out[a + 1] = (out[a + 1] as number) + ny;
    out[a + 2] = (out[a + 2] as number) + nz;
    out[b] = (out[b] as number) + nx;
    out[b + 1] = (out[b + 1] as number) + ny;
    out[b + 2] = (out[b + 2] as number) + nz;
    out[c] = (out[c] as number) + nx;
    out[c + 1] = (out[c + 1] as number) + ny;
    out[c + 2] = (out[c + 2] as number) + nz;
  }
  for (let i = 0; i < out.length; i += 3) {
    const x = out[i] as number;
    const y = out[i + 1] as number;
    const z = out[i + 2] as number;
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > 0) {
      out[i] = x / l;
      out[i + 1] = y / l;
      out[i + 2] = z / l;
    }
  }
  return out;
}
