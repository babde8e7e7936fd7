import type { TriangleMesh } from './types';

/** Bytes of a binary STL file with `triangles` facets: 80-byte header, uint32 count, 50 bytes per facet. */
export function binaryStlByteLength(triangles: number): number {
  return 84 + 50 * triangles;
}

/**
 * Binary STL of a mesh (little-endian float32, coordinates as given, normally mm). Each facet carries its unit
 * normal computed from the vertex order; the attribute word is 0. `header` (ASCII, ≤ 80 chars, must not start
 * with "solid") is zero-padded. Deterministic: the same mesh gives the same bytes.
 */
export function writeBinaryStl(mesh: TriangleMesh, header = 'binary STL, @insilico/mesh, mm'): Uint8Array {
  if (header.length > 80 || /^solid/i.test(header)) throw new RangeError('STL header: ≤ 80 chars, not "solid…"');
  const p = mesh.positions;
  const idx = mesh.indices;
  const count = idx.length / 3;
  const bytes = new Uint8Array(binaryStlByteLength(count));
  for (let i = 0; i < header.length; i++) bytes[i] = header.charCodeAt(i) & 0x7f;
  const view = new DataView(bytes.buffer);
  view.setUint32(80, count, true);
  let o = 84;
  for (let t = 0; t < idx.length; t += 3) {
    const a = (idx[t] as number) * 3;
    const b = (idx[t + 1] as number) * 3;
    const c = (idx[t + 2] as number) * 3;
    const ax = p[a] as number;
    const ay = p[a + 1] as number;
    const az = p[a + 2] as number;
    const bx = p[b] as number;
    const by = p[b + 1] as number;
    const bz = p[b + 2] as number;
    const cx = p[c] as number;
    const cy = p[c + 1] as number;
    const cz = p[c + 2] as number;
    const ux = bx - ax;
    const uy = by - ay;
    const uz = bz - az;
    const vx = cx - ax;
    const vy = cy - ay;
    const vz = cz - az;
    let nx = uy * vz - uz * vy;
    let ny = uz * vx - ux * vz;
    let nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0) {
      nx /= l;
      ny /= l;
      nz /= l;
    }
    view.setFloat32(o, nx, true);
    view.setFloat32(o + 4, ny, true);
    view.setFloat32(o + 8, nz, true);
    view.setFloat32(o + 12, ax, true);
    view.setFloat32(o + 16, ay, true);
    view.setFloat32(o + 20, az, true);
    view.setFloat32(o + 24, bx, true);
    view.setFloat32(o + 28, by, true);
    view.setFloat32(o + 32, bz, true);
    view.setFloat32(o + 36, cx, true);
    view.setFloat32(o + 40, cy, true);
    view.setFloat32(o + 44, cz, true);
    o += 50;
  }
  return bytes;
}
