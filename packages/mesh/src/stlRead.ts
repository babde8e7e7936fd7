import type { TriangleMesh } from './types';

/** Error for bytes that are neither a binary nor an ASCII STL. */
export class StlParseError extends Error {
  override readonly name = 'StlParseError';
}

/**
 * Reads a binary or ASCII STL into an indexed mesh (Float32Array positions, coordinates as stored, normally mm).
 * Corners with bit-identical coordinates are welded into one vertex (−0 equals +0); stored facet normals are
 * ignored (orientation comes from the vertex order). Binary is recognised by its exact size 84 + 50·n.
 */
export function readStl(bytes: Uint8Array): TriangleMesh {
  if (bytes.length >= 84) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getUint32(80, true);
    if (bytes.length === 84 + 50 * count) {
      const corners = new Float32Array(count * 9);
      for (let t = 0; t < count; t++) {
        const o = 84 + 50 * t + 12;
        for (let k = 0; k < 9; k++) corners[t * 9 + k] = view.getFloat32(o + 4 * k, true);
      }
      return weld(corners);
    }
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!/^\s*solid/i.test(text)) throw new StlParseError('not an STL: wrong binary size and no "solid" keyword');
  const values: number[] = [];
  const vertex = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/gi;
  for (let m = vertex.exec(text); m !== null; m = vertex.exec(text)) {
    const x = Number(m[1]);
    const y = Number(m[2]);
    const z = Number(m[3]);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      throw new StlParseError(`bad vertex "${m[0]}"`);
    }
    values.push(x, y, z);
  }
  if (values.length % 9 !== 0) throw new StlParseError('ASCII STL: vertex count is not a multiple of 3');
  return weld(Float32Array.from(values));
}

/** Welds a triangle soup (9 floats per triangle) into an indexed mesh with an open-addressing hash on the bits. */
function weld(corners: Float32Array): TriangleMesh {
  const n = corners.length / 3;
  for (let i = 0; i < corners.length; i++) corners[i] = (corners[i] as number) + 0; // −0 → +0
  const bits = new Uint32Array(corners.buffer, corners.byteOffset, corners.length);
  let size = 16;
  while (size < n * 2) size *= 2;
  const table = new Int32Array(size).fill(-1);
  const remap = new Uint32Array(n);
  const positions = new Float32Array(n * 3);
  const stored = new Uint32Array(positions.buffer);
  let vertices = 0;
  for (let i = 0; i < n; i++) {
    const x = bits[3 * i] as number;
    const y = bits[3 * i + 1] as number;
    const z = bits[3 * i + 2] as number;
    let h = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)) >>> 0;
    h = (h ^ (h >>> 15)) & (size - 1);
    for (;;) {
      const slot = table[h] as number;
      if (slot < 0) {
        table[h] = vertices;
        positions[3 * vertices] = corners[3 * i] as number;
        positions[3 * vertices + 1] = corners[3 * i + 1] as number;
        positions[3 * vertices + 2] = corners[3 * i + 2] as number;
        remap[i] = vertices++;
        break;
      }
      if (stored[3 * slot] === x && stored[3 * slot + 1] === y && stored[3 * slot + 2] === z) {
        remap[i] = slot;
        break;
      }
      h = (h + 1) & (size - 1);
    }
  }
  return { positions: positions.slice(0, vertices * 3), indices: remap };
}
