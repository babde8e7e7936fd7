// The STL corpus of the tests: good and broken files built from exact shapes, byte for byte, so every expected
// value is known analytically. Not exported from the package.
import { writeBinaryStl } from '../src/stlWrite';
import type { TriangleMesh } from '../src/types';
import { cube } from './shapes';

/** ASCII writing options, to exercise the reader's tolerance of layout and case. */
export interface AsciiLayout {
  readonly name?: string;
  readonly newline?: string;
  readonly indent?: string;
  readonly upperCase?: boolean;
}

/** An ASCII STL of the mesh (normals written as 0 0 0: the reader ignores them). */
export function asciiStl(mesh: TriangleMesh, layout: AsciiLayout = {}): Uint8Array {
  const nl = layout.newline ?? '\n';
  const ind = layout.indent ?? '  ';
  const kw = (word: string): string => (layout.upperCase ? word.toUpperCase() : word);
  const p = mesh.positions;
  const lines = [`${kw('solid')} ${layout.name ?? 'part'}`];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    lines.push(`${ind}${kw('facet')} ${kw('normal')} 0 0 0`, `${ind}${ind}${kw('outer')} ${kw('loop')}`);
    for (let k = 0; k < 3; k++) {
      const v = (mesh.indices[t + k] as number) * 3;
      lines.push(`${ind}${ind}${ind}${kw('vertex')} ${p[v]} ${p[v + 1]} ${p[v + 2]}`);
    }
    lines.push(`${ind}${ind}${kw('endloop')}`, `${ind}${kw('endfacet')}`);
  }
  lines.push(`${kw('endsolid')} ${layout.name ?? 'part'}`, '');
  return new TextEncoder().encode(lines.join(nl));
}

/** The binary STL of the mesh with its 80-byte header replaced by `header` (ASCII, zero-padded). */
export function binaryStlWithHeader(mesh: TriangleMesh, header: string): Uint8Array {
  const bytes = writeBinaryStl(mesh);
  bytes.fill(0, 0, 80);
  for (let i = 0; i < header.length && i < 80; i++) bytes[i] = header.charCodeAt(i);
  return bytes;
}

/** A copy of a binary STL with its triangle count field set to `count`. */
export function withTriangleCount(bytes: Uint8Array, count: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(80, count, true);
  return copy;
}

/** A copy of a binary STL with coordinate `axis` of corner `corner` (0–2) of triangle `triangle` (0-based) set. */
export function withCoordinate(
  bytes: Uint8Array,
  triangle: number,
  corner: number,
  axis: number,
  value: number,
): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setFloat32(84 + 50 * triangle + 12 + 12 * corner + 4 * axis, value, true);
  return copy;
}

/** Side-10 cube with two extra triangles of a repeated corner and a closed needle of two collinear triangles. */
export function cubeWithZeroAreaTriangles(): TriangleMesh {
  const c = cube(10);
  const positions = new Float64Array([...c.positions, 20, 0, 0, 21, 0, 0, 23, 0, 0]);
  const indices = new Uint32Array([...c.indices, 0, 0, 1, 6, 7, 7, 8, 9, 10, 8, 10, 9]);
  return { positions, indices };
}

/** The triangles of `mesh` without triangle `skip`: an open surface with a three-edge hole. */
export function withoutTriangle(mesh: TriangleMesh, skip: number): TriangleMesh {
  const indices = Array.from(mesh.indices).filter((_, i) => Math.floor(i / 3) !== skip);
  return { positions: mesh.positions, indices: Uint32Array.from(indices) };
}

/** The mesh with the vertex order of the listed triangles reversed (all when `which` is omitted). */
export function flipped(mesh: TriangleMesh, which?: readonly number[]): TriangleMesh {
  const indices = mesh.indices.slice();
  const triangles = which ?? Array.from({ length: indices.length / 3 }, (_, t) => t);
  for (const t of triangles) {
    const b = indices[3 * t + 1] as number;
    indices[3 * t + 1] = indices[3 * t + 2] as number;
    indices[3 * t + 2] = b;
  }
  return { positions: mesh.positions, indices };
}

/** Deterministic PRNG (xorshift32, uniform in [0, 1)) for the mutation tests. */
export function random32(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s ^ (s << 13)) >>> 0;
    s = (s ^ (s >>> 17)) >>> 0;
    s = (s ^ (s << 5)) >>> 0;
    return s / 4294967296;
  };
}
