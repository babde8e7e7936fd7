import { describe, expect, it } from 'vitest';
import { createStlParser, validateStl, writeBinaryStl, type StlRefusalCode } from './index';
import { asciiStl, random32 } from '../test/stlCorpus';
import { cube, ellipsoid } from '../test/shapes';

const CODES: readonly StlRefusalCode[] = [
  'empty',
  'not-stl',
  'no-triangles',
  'truncated',
  'count-exceeds-file',
  'trailing-bytes',
  'non-finite-vertex',
  'ascii-syntax',
  'too-large',
];

/** One random damage: flipped bytes, a cut, an insertion, a deletion, a new count, or a bad word in the text. */
function mutate(source: Uint8Array, random: () => number): Uint8Array {
  const at = (n: number): number => Math.floor(random() * n);
  const bytes = source.slice();
  switch (at(7)) {
    case 0:
      for (let k = 1 + at(8); k > 0; k--) bytes[at(bytes.length)] = at(256);
      return bytes;
    case 1:
      return bytes.slice(0, at(bytes.length));
    case 2: {
      const i = at(bytes.length);
      return splice(
        bytes,
        i,
        0,
        Uint8Array.from({ length: 1 + at(60) }, () => at(256)),
      );
    }
    case 3: {
      const i = at(bytes.length);
      return splice(bytes, i, 1 + at(60), new Uint8Array(0));
    }
    case 4:
      if (bytes.length >= 84) new DataView(bytes.buffer).setUint32(80, random() < 0.5 ? at(2 ** 32) : at(64), true);
      return bytes;
    case 5: {
      const words = ['solid', 'endsolid', 'facet', 'vertex', 'nan', '-inf', '1e400', '', '\n', 'endloop', '1.5e-3'];
      const word = new TextEncoder().encode(` ${words[at(words.length)]} `);
      const i = at(bytes.length);
      return splice(bytes, i, 0, word);
    }
    default:
      // A run of float bit patterns that are NaN, infinite, subnormal or huge.
      for (let k = 0; k < 4 && bytes.length >= 4; k++) {
        const special = [0x7fc00000, 0x7f800000, 0xff800000, 0x00000001, 0x7f7fffff, 0x80000000][at(6)] as number;
        new DataView(bytes.buffer).setUint32(at(bytes.length - 3), special, true);
      }
      return bytes;
  }
}

/** `bytes` with `remove` bytes at `at` replaced by `insert`. */
function splice(bytes: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const tail = bytes.subarray(Math.min(bytes.length, at + remove));
  const out = new Uint8Array(at + insert.length + tail.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(tail, at + insert.length);
  return out;
}

describe('STL fuzzing: random damage never throws, only validation results', () => {
  const sources = [
    writeBinaryStl(cube(10)),
    writeBinaryStl(ellipsoid(3, 4, 5, 6, 10)),
    asciiStl(cube(10)),
    asciiStl(ellipsoid(3, 4, 5, 4, 6), { upperCase: true, newline: '\r\n' }),
  ];

  it('3,000 mutated files: each accepted with finite metrics or refused with a known code and a reason', () => {
    const random = random32(20261121);
    const seen = new Set<string>();
    const wrong: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const bytes = mutate(sources[i % sources.length] as Uint8Array, random);
      const result = validateStl(bytes);
      if (result.ok) {
        const q = result.quality;
        const finite = [q.surfaceArea_mm2, q.volume_mm3 ?? 0, ...q.boundingBox.min, ...q.boundingBox.max];
        if (!finite.every(Number.isFinite)) wrong.push(`${i}: non-finite metric`);
        if (q.triangleCount * 3 !== result.mesh.indices.length) wrong.push(`${i}: triangle count`);
        if (result.mesh.indices.some((index) => index >= q.vertexCount)) wrong.push(`${i}: index out of range`);
        seen.add('accepted');
      } else {
        if (!CODES.includes(result.refusal.code) || result.refusal.reason.length < 10) wrong.push(`${i}: refusal`);
        seen.add(result.refusal.code);
      }
    }
    expect(wrong).toEqual([]);
    // The mutations reach the interesting outcomes, not just one refusal.
    for (const outcome of ['accepted', 'truncated', 'count-exceeds-file', 'non-finite-vertex', 'ascii-syntax']) {
      expect(seen).toContain(outcome);
    }
  }, 60_000);

  it('the same mutated files in random chunk sizes give the same results', () => {
    const random = random32(7);
    for (let i = 0; i < 300; i++) {
      const bytes = mutate(sources[i % sources.length] as Uint8Array, random);
      const parser = createStlParser(bytes.length);
      let o = 0;
      while (o < bytes.length) {
        const size = 1 + Math.floor(random() * 200);
        if (!parser.push(bytes.subarray(o, o + size))) break;
        o += size;
      }
      const chunked = parser.finish();
      const whole = validateStl(bytes);
      expect(chunked.ok).toBe(whole.ok);
      if (!chunked.ok && !whole.ok) expect(chunked.refusal).toEqual(whole.refusal);
      if (chunked.ok && whole.ok) expect(chunked.mesh).toEqual(whole.mesh);
    }
  }, 60_000);
});
