import { describe, expect, it } from 'vitest';
import {
  createStlParser,
  MAX_STL_TRIANGLES,
  parseStl,
  parseStlChunks,
  validateStl,
  validateStlChunks,
  writeBinaryStl,
  type StlValidation,
} from './index';
import {
  asciiStl,
  binaryStlWithHeader,
  cubeWithZeroAreaTriangles,
  flipped,
  withCoordinate,
  withoutTriangle,
  withTriangleCount,
} from '../test/stlCorpus';
import { cube, ellipsoid } from '../test/shapes';

const CUBE = cube(10);
const CUBE_BINARY = writeBinaryStl(CUBE);

function accepted(result: StlValidation): Extract<StlValidation, { ok: true }> {
  if (!result.ok) throw new Error(`refused: ${result.refusal.reason}`);
  return result;
}

function refusal(bytes: Uint8Array) {
  const result = validateStl(bytes);
  if (result.ok) throw new Error('accepted a file that should be refused');
  return result.refusal;
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('STL corpus: accepted files and their metrics', () => {
  it('valid binary: a 10 mm cube has area 600 mm², volume 1000 mm³, 12 triangles, 8 vertices, no findings', () => {
    const r = accepted(validateStl(CUBE_BINARY));
    expect(r.format).toBe('binary');
    expect(r.quality).toEqual({
      triangleCount: 12,
      vertexCount: 8,
      boundingBox: { min: [0, 0, 0], max: [10, 10, 10], size: [10, 10, 10] },
      surfaceArea_mm2: 600,
      volume_mm3: 1000,
      signedVolume_mm3: 1000,
      watertight: true,
      edgeCount: 18,
      boundaryEdges: 0,
      nonManifoldEdges: 0,
      degenerateTriangles: 0,
      orientationFlips: 0,
    });
    expect(r.findings).toEqual([]);
  });

  it('valid ASCII, tolerant of case, CRLF, tabs and indentation: the same cube', () => {
    for (const layout of [{}, { upperCase: true, newline: '\r\n', indent: '\t' }, { indent: '', newline: '\n\n' }]) {
      const r = accepted(validateStl(asciiStl(CUBE, layout)));
      expect(r.format).toBe('ascii');
      expect(r.quality).toEqual(accepted(validateStl(CUBE_BINARY)).quality);
    }
  });

  it('ASCII: several solids in one file, a byte-order mark, leading blank lines, names with spaces', () => {
    const one = new TextDecoder().decode(asciiStl(withoutTriangle(CUBE, 11), { name: 'first part' }));
    const last = new TextDecoder().decode(asciiStl({ positions: CUBE.positions, indices: CUBE.indices.slice(33) }));
    const r = accepted(validateStl(text(`\uFEFF\n\n  ${one}${last}`)));
    expect(r.quality).toMatchObject({ triangleCount: 12, vertexCount: 8, watertight: true, volume_mm3: 1000 });
  });

  it('a binary file whose 80-byte header begins with "solid" is read as binary', () => {
    for (const header of ['solid cube', 'SOLID', 'solid\nfacet normal 0 0 0\n']) {
      const r = accepted(validateStl(binaryStlWithHeader(CUBE, header)));
      expect(r.format).toBe('binary');
      expect(r.quality.volume_mm3).toBe(1000);
    }
  });

  it('a sphere of radius 20 (64 × 128 loft): area and volume within 0.5 % of 4πr² and 4/3 πr³', () => {
    const r = accepted(validateStl(writeBinaryStl(ellipsoid(20, 20, 20, 64, 128))));
    expect(r.quality.triangleCount).toBe(2 * 128 * 64);
    expect(r.quality.vertexCount).toBe(64 * 128 + 2);
    expect(Math.abs(r.quality.surfaceArea_mm2 / (4 * Math.PI * 400) - 1)).toBeLessThan(0.005);
    expect(Math.abs((r.quality.volume_mm3 as number) / ((4 / 3) * Math.PI * 8000) - 1)).toBeLessThan(0.005);
    for (const axis of [0, 1, 2]) expect(r.quality.boundingBox.size[axis]).toBeCloseTo(40, 1);
    expect(r.findings).toEqual([]);
  });

  it('zero-area triangles: accepted, counted, area and volume unchanged', () => {
    const r = accepted(validateStl(writeBinaryStl(cubeWithZeroAreaTriangles())));
    expect(r.quality).toMatchObject({
      triangleCount: 16,
      vertexCount: 11,
      degenerateTriangles: 4,
      surfaceArea_mm2: 600,
      volume_mm3: 1000,
      watertight: true,
    });
    expect(r.findings).toEqual([
      { code: 'degenerate-triangles', count: 4, message: '4 triangles have zero area (degenerate).' },
    ]);
  });

  it('an open mesh: accepted with 3 boundary edges, not watertight, no volume', () => {
    const r = accepted(validateStl(writeBinaryStl(withoutTriangle(CUBE, 0))));
    expect(r.quality).toMatchObject({
      triangleCount: 11,
      surfaceArea_mm2: 550,
      watertight: false,
      boundaryEdges: 3,
      volume_mm3: null,
      signedVolume_mm3: null,
    });
    expect(r.findings.map((f) => f.code)).toEqual(['open']);
    expect(r.findings[0]?.message).toBe(
      'The surface is not watertight: 3 edges belong to only one triangle (holes or an open surface), so no volume is given.',
    );
  });

  it('inconsistent orientation: one flipped triangle gives 3 flips and no volume', () => {
    const r = accepted(validateStl(writeBinaryStl(flipped(CUBE, [4]))));
    expect(r.quality).toMatchObject({ watertight: true, orientationFlips: 3, volume_mm3: null });
    expect(r.quality.signedVolume_mm3).not.toBeNull();
    expect(r.findings.map((f) => f.code)).toEqual(['inconsistent-orientation']);
  });

  it('inside out: every triangle flipped gives a negative signed volume and a positive volume', () => {
    const r = accepted(validateStl(writeBinaryStl(flipped(CUBE))));
    expect(r.quality).toMatchObject({ volume_mm3: 1000, signedVolume_mm3: -1000, orientationFlips: 0 });
    expect(r.findings.map((f) => f.code)).toEqual(['inverted']);
  });

  it('non-manifold edges: a fin on a cube edge', () => {
    const c = cube(10);
    const mesh = {
      positions: new Float64Array([...c.positions, 5, -5, 0]),
      indices: new Uint32Array([...c.indices, 0, 1, 8]),
    };
    const r = accepted(validateStl(writeBinaryStl(mesh)));
    expect(r.quality).toMatchObject({ nonManifoldEdges: 1, boundaryEdges: 2, watertight: false, volume_mm3: null });
    expect(r.findings.map((f) => f.code)).toEqual(['open', 'non-manifold']);
  });

  it('welds exactly: corners 1 ulp apart stay separate, −0 and +0 weld', () => {
    const nudged = withCoordinate(CUBE_BINARY, 0, 0, 0, 1e-45); // vertex (0,0,0) of triangle 1 moves by one ulp
    expect(accepted(validateStl(nudged)).quality).toMatchObject({ vertexCount: 9, watertight: false });
    const negativeZero = withCoordinate(CUBE_BINARY, 0, 0, 0, -0);
    expect(accepted(validateStl(negativeZero)).quality).toMatchObject({ vertexCount: 8, watertight: true });
  });
});

describe('STL corpus: refused files and their reasons', () => {
  it('an empty file', () => {
    expect(refusal(new Uint8Array(0))).toEqual({ code: 'empty', reason: 'The file is empty.' });
  });

  it('zero triangles, binary and ASCII', () => {
    expect(refusal(CUBE_BINARY.slice(0, 84).fill(0, 80))).toMatchObject({ code: 'no-triangles' });
    expect(refusal(text('solid empty\nendsolid empty\n'))).toEqual({
      code: 'no-triangles',
      reason: 'The file contains no triangles.',
    });
  });

  it('truncated in the middle of a triangle', () => {
    expect(refusal(CUBE_BINARY.slice(0, CUBE_BINARY.length - 20))).toEqual({
      code: 'truncated',
      triangle: 12,
      reason:
        'The file is truncated: its header announces 12 triangles (684 bytes), but the file has only 664 bytes ' +
        'and ends inside triangle 12.',
    });
  });

  it('a triangle count larger than the file', () => {
    expect(refusal(withTriangleCount(CUBE_BINARY, 1000))).toEqual({
      code: 'count-exceeds-file',
      reason:
        'The triangle count in the file header (1,000) is larger than the file: that many triangles need ' +
        '50,084 bytes, but the file has 684 bytes, room for 12 triangles.',
    });
  });

  it('a header claiming 2³²−1 triangles: refused from the size, without allocating for them', () => {
    expect(refusal(withTriangleCount(CUBE_BINARY, 2 ** 32 - 1))).toMatchObject({
      code: 'count-exceeds-file',
      reason: expect.stringContaining(
        '(4,294,967,295) is larger than the file: that many triangles need 214,748,364,834 bytes',
      ),
    });
    expect(refusal(withTriangleCount(CUBE_BINARY.slice(0, 84), 2 ** 32 - 1)).code).toBe('count-exceeds-file');
  });

  it('bytes after the last announced triangle', () => {
    const longer = new Uint8Array(CUBE_BINARY.length + 7);
    longer.set(CUBE_BINARY);
    expect(refusal(longer)).toEqual({
      code: 'trailing-bytes',
      reason:
        'The file has 7 bytes more than the 12 triangles its header announces (684 bytes): it is damaged or not an STL.',
    });
  });

  it('NaN and infinite vertices (binary: the triangle; ASCII: the line)', () => {
    expect(refusal(withCoordinate(CUBE_BINARY, 4, 1, 2, NaN))).toEqual({
      code: 'non-finite-vertex',
      triangle: 5,
      reason: 'Triangle 5 has a vertex coordinate that is not a finite number (NaN or infinity).',
    });
    expect(refusal(withCoordinate(CUBE_BINARY, 11, 2, 0, -Infinity))).toMatchObject({ triangle: 12 });
    const ascii = new TextDecoder().decode(asciiStl(CUBE)).replace('vertex 0 0 0', 'vertex 0 nan 0');
    expect(refusal(text(ascii))).toEqual({
      code: 'non-finite-vertex',
      line: 4,
      triangle: 1,
      reason: 'Line 4: the vertex coordinate "nan" is not a finite number.',
    });
    // Finite as a double, infinite as float32 (the precision STL stores).
    const huge = new TextDecoder().decode(asciiStl(CUBE)).replace('vertex 0 0 0', 'vertex 1e39 0 0');
    expect(refusal(text(huge))).toMatchObject({ code: 'non-finite-vertex', line: 4 });
  });

  it('ASCII structure errors name the line', () => {
    const good = new TextDecoder().decode(asciiStl(CUBE));
    const cases: [string, string][] = [
      [good.replace('outer loop', 'outer lop'), 'Line 3: expected "loop" but found "lop".'],
      [
        good.replace('endloop', 'vertex 1 2 3\n    endloop'),
        'Line 7: a facet has more than three vertices; STL facets are triangles.',
      ],
      [good.replace(/ {6}vertex 10 10 0\n/, ''), 'Line 6: a facet ends after 2 vertices; STL facets have three.'],
      [good.replace('vertex 0 0 0', 'vertex 0 0,5 0'), 'Line 4: "0,5" is not a number.'],
      [good.replace('facet normal 0 0 0', 'facet normal 0 0'), 'Line 3: "outer" is not a number.'],
      [good.replace(/endsolid part\n$/, ''), 'The file ends at line 85 before "endsolid": it is truncated.'],
      [good.replace(/\n$/, '\ngarbage\n'), 'Line 87: expected "solid" or the end but found "garbage".'],
      // Past the first kilobyte: a control byte there would make the file binary-looking.
      [
        `${good.slice(0, good.lastIndexOf('endfacet'))}\u0001${good.slice(good.lastIndexOf('endfacet'))}`,
        'Line 85: unexpected control byte 0x01; the text file is damaged.',
      ],
    ];
    for (const [file, reason] of cases) expect(refusal(text(file)).reason).toBe(reason);
  });

  it('not an STL', () => {
    expect(refusal(new Uint8Array([1, 2, 3]))).toMatchObject({
      code: 'not-stl',
      reason: expect.stringMatching(/^The file is not an STL/),
    });
    expect(refusal(text('hello world, this is not a mesh'))).toMatchObject({ code: 'not-stl' });
  });

  it('more triangles than the package processes: refused from the header alone', () => {
    const announced = MAX_STL_TRIANGLES + 1;
    const parser = createStlParser(84 + 50 * announced);
    const head = new Uint8Array(1024);
    new DataView(head.buffer).setUint32(80, announced, true);
    expect(parser.push(head)).toBe(false);
    const result = parser.finish();
    expect(result.ok ? null : result.refusal.code).toBe('too-large');
  });
});

describe('STL in chunks', () => {
  const files = [CUBE_BINARY, asciiStl(CUBE, { newline: '\r\n' }), writeBinaryStl(ellipsoid(5, 6, 7, 9, 16))];

  it('gives the same mesh for any chunk size, including records and words split across chunks', () => {
    for (const bytes of files) {
      const whole = parseStl(bytes);
      for (const size of [1, 7, 50, 83, 1000]) {
        const parser = createStlParser(bytes.length);
        for (let o = 0; o < bytes.length; o += size) parser.push(bytes.subarray(o, o + size));
        expect(parser.finish()).toEqual(whole);
      }
    }
  });

  it('reads an async iterable (e.g. a file stream) and stops at the first refusal', async () => {
    async function* chunks(bytes: Uint8Array, size: number) {
      for (let o = 0; o < bytes.length; o += size) yield bytes.subarray(o, o + size);
    }
    const bytes = files[2] as Uint8Array;
    const r = accepted(await validateStlChunks(chunks(bytes, 4096), bytes.length));
    expect(r.quality).toEqual(accepted(validateStl(bytes)).quality);
    let pulled = 0;
    const bad = withCoordinate(bytes, 3, 0, 0, NaN);
    async function* counting() {
      for await (const c of chunks(bad, 100)) {
        pulled++;
        yield c;
      }
    }
    expect(await parseStlChunks(counting(), bad.length)).toMatchObject({ ok: false, refusal: { triangle: 4 } });
    expect(pulled).toBeLessThan(bad.length / 100 / 2);
  });

  it('tells a caller who pushes more or fewer bytes than announced', () => {
    expect(() => createStlParser(10).push(new Uint8Array(11))).toThrow(RangeError);
    const parser = createStlParser(CUBE_BINARY.length);
    parser.push(CUBE_BINARY.subarray(0, 100));
    expect(() => parser.finish()).toThrow(RangeError);
  });
});
