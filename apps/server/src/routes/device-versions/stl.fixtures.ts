import { writeBinaryStl, type TriangleMesh } from '@insilico/mesh';

/**
 * The STL corpus of the device-version suites, built byte for byte from a side-10 cube so every expected
 * metric is known (area 600 mm², volume 1000 mm³, 12 triangles, 8 vertices).
 */

export function cube(s = 10): TriangleMesh {
  const positions = new Float64Array([0, 0, 0, s, 0, 0, s, s, 0, 0, s, 0, 0, 0, s, s, 0, s, s, s, s, 0, s, s]);
  // prettier-ignore
  const indices = new Uint32Array([
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
    2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3,
  ]);
  return { positions, indices };
}

export function asciiStl(mesh: TriangleMesh): Uint8Array {
  const p = mesh.positions;
  const lines = ['solid part'];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    lines.push('  facet normal 0 0 0', '    outer loop');
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[t + k]! * 3;
      lines.push(`      vertex ${p[v]} ${p[v + 1]} ${p[v + 2]}`);
    }
    lines.push('    endloop', '  endfacet');
  }
  lines.push('endsolid part', '');
  return new TextEncoder().encode(lines.join('\n'));
}

/** The cube's binary STL whose 80-byte header starts with "solid" (as many exporters write). */
export function binaryWithSolidHeader(): Uint8Array {
  const bytes = writeBinaryStl(cube());
  bytes.fill(0, 0, 80);
  bytes.set(new TextEncoder().encode('solid exported by a CAD tool'), 0);
  return bytes;
}

export function withTriangleCount(bytes: Uint8Array, count: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(80, count, true);
  return copy;
}

/** The cube with the x of the first corner of triangle 3 set to NaN. */
export function withNaN(): Uint8Array {
  const copy = writeBinaryStl(cube()).slice();
  new DataView(copy.buffer).setFloat32(84 + 50 * 2 + 12, Number.NaN, true);
  return copy;
}

/** The cube plus one triangle with a repeated corner (zero area): accepted with a finding. */
export function withZeroAreaTriangle(): Uint8Array {
  const c = cube();
  return writeBinaryStl({ positions: c.positions, indices: Uint32Array.from([...c.indices, 0, 0, 1]) });
}

/** The cube without its first triangle: an open surface (not watertight, no volume). */
export function openCube(): Uint8Array {
  const c = cube();
  return writeBinaryStl({ positions: c.positions, indices: c.indices.slice(3) });
}

/** The named corpus: each file with the outcome processing must reach. */
export function stlCorpus() {
  const binary = writeBinaryStl(cube());
  return {
    binary,
    ascii: asciiStl(cube()),
    solidHeader: binaryWithSolidHeader(),
    truncated: binary.slice(0, binary.length - 20),
    countBeyondFile: withTriangleCount(binary, 13),
    nan: withNaN(),
    zeroArea: withZeroAreaTriangle(),
    open: openCube(),
    empty: new Uint8Array(0),
    maxCount: withTriangleCount(binary, 0xffffffff),
  };
}
