/**
 * Why an STL file is refused, in words a person understands. One place for the wording, so the parser states
 * facts (counts, sizes, line numbers) and this module turns them into sentences. The web shows the reason under
 * the spec's device-version error message, one per file.
 */

/** Machine-readable kind of refusal (stable: stored with a refused file and tested). */
export type StlRefusalCode =
  | 'empty'
  | 'not-stl'
  | 'no-triangles'
  | 'truncated'
  | 'count-exceeds-file'
  | 'trailing-bytes'
  | 'non-finite-vertex'
  | 'ascii-syntax'
  | 'too-large';

/** A refused file: the code, the sentence shown to the user, and where in the file when known. */
export interface StlRefusal {
  readonly code: StlRefusalCode;
  readonly reason: string;
  /** ASCII files: 1-based line of the problem. */
  readonly line?: number;
  /** 1-based triangle of the problem (binary files, and ASCII non-finite vertices). */
  readonly triangle?: number;
}

/** 1234567 → "1,234,567" (fixed format, not the locale's: reasons are stored and compared in tests). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;

export const refuse = {
  empty: (): StlRefusal => ({ code: 'empty', reason: 'The file is empty.' }),

  notStl: (bytes: number): StlRefusal => ({
    code: 'not-stl',
    reason:
      `The file is not an STL: it does not begin with "solid" like an ASCII STL, and with ` +
      `${plural(bytes, 'byte', 'bytes')} it is shorter than the 84 bytes every binary STL starts with.`,
  }),

  noTriangles: (): StlRefusal => ({ code: 'no-triangles', reason: 'The file contains no triangles.' }),

  /** Binary file shorter than its header's triangle count needs, ending inside a triangle. */
  truncated: (announced: number, needed: number, actual: number): StlRefusal => {
    const inside = Math.floor((actual - 84) / 50) + 1;
    return {
      code: 'truncated',
      triangle: inside,
      reason:
        `The file is truncated: its header announces ${plural(announced, 'triangle', 'triangles')} ` +
        `(${formatCount(needed)} bytes), but the file has only ${formatCount(actual)} bytes and ends inside ` +
        `triangle ${formatCount(inside)}.`,
    };
  },

  /** Binary file that ends on a triangle boundary but holds fewer triangles than its header claims. */
  countExceedsFile: (announced: number, needed: number, actual: number): StlRefusal => ({
    code: 'count-exceeds-file',
    reason:
      `The triangle count in the file header (${formatCount(announced)}) is larger than the file: that many ` +
      `triangles need ${formatCount(needed)} bytes, but the file has ${formatCount(actual)} bytes, room for ` +
      `${plural(Math.max(0, Math.floor((actual - 84) / 50)), 'triangle', 'triangles')}.`,
  }),

  trailingBytes: (announced: number, needed: number, actual: number): StlRefusal => ({
    code: 'trailing-bytes',
    reason:
      `The file has ${plural(actual - needed, 'byte', 'bytes')} more than the ` +
      `${plural(announced, 'triangle', 'triangles')} its header announces (${formatCount(needed)} bytes): ` +
      `it is damaged or not an STL.`,
  }),

  nonFiniteBinary: (triangle: number): StlRefusal => ({
    code: 'non-finite-vertex',
    triangle,
    reason: `Triangle ${formatCount(triangle)} has a vertex coordinate that is not a finite number (NaN or infinity).`,
  }),

  nonFiniteAscii: (line: number, triangle: number, token: string): StlRefusal => ({
    code: 'non-finite-vertex',
    line,
    triangle,
    reason: `Line ${formatCount(line)}: the vertex coordinate "${token}" is not a finite number.`,
  }),

  expected: (line: number, expected: string, found: string): StlRefusal => ({
    code: 'ascii-syntax',
    line,
    reason: `Line ${formatCount(line)}: expected ${expected} but found "${found}".`,
  }),

  notANumber: (line: number, token: string): StlRefusal => ({
    code: 'ascii-syntax',
    line,
    reason: `Line ${formatCount(line)}: "${token}" is not a number.`,
  }),

  tooManyVertices: (line: number): StlRefusal => ({
    code: 'ascii-syntax',
    line,
    reason: `Line ${formatCount(line)}: a facet has more than three vertices; STL facets are triangles.`,
  }),

  tooFewVertices: (line: number, vertices: number): StlRefusal => ({
    code: 'ascii-syntax',
    line,
    reason: `Line ${formatCount(line)}: a facet ends after ${plural(vertices, 'vertex', 'vertices')}; STL facets have three.`,
  }),

  unexpectedByte: (line: number, byte: number): StlRefusal => ({
    code: 'ascii-syntax',
    line,
    reason: `Line ${formatCount(line)}: unexpected control byte 0x${byte.toString(16).padStart(2, '0')}; the text file is damaged.`,
  }),

  wordTooLong: (line: number, start: string): StlRefusal => ({
    code: 'ascii-syntax',
    line,
    reason: `Line ${formatCount(line)}: the word "${start}…" is too long to be part of an STL.`,
  }),

  asciiEnded: (line: number): StlRefusal => ({
    code: 'truncated',
    line,
    reason: `The file ends at line ${formatCount(line)} before "endsolid": it is truncated.`,
  }),

  /** `triangles` when the header states it (binary); ASCII files are refused on reaching the limit. */
  tooLarge: (limit: number, triangles?: number): StlRefusal => ({
    code: 'too-large',
    reason:
      `The file has more triangles than can be processed (at most ${formatCount(limit)}` +
      `${triangles === undefined ? '' : `; it has ${formatCount(triangles)}`}).`,
  }),
};
