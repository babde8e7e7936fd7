import type { TriangleMesh } from './types';
import { latin1, parseDecimal } from './parseDecimal';
import { refuse, type StlRefusal } from './stlRefusal';
import { VertexWelder } from './vertexWelder';

/**
 * ASCII STL, chunk by chunk, byte by byte (a 1 GB file is more text than one JS string may hold):
 *
 *   solid [name]
 *     facet normal nx ny nz
 *       outer loop
 *         vertex x y z     (three times)
 *       endloop
 *     endfacet             (any number of facets)
 *   endsolid [name]        (any number of solids, one after the other)
 *
 * Tolerant of whitespace and case (keywords, line endings, indentation); strict about structure: every keyword
 * in its place, numbers that parse, exactly three vertices per facet, an `endsolid` at the end. Errors carry the
 * 1-based line. Names after `solid` / `endsolid` are the rest of their line and are not checked. Normals must be
 * numbers but are ignored (orientation comes from the vertex order); coordinates are rounded to float32, the
 * precision of binary STL, and welded on their bits like binary corners.
 */

const MAX_WORD = 256;
const enum State {
  Solid,
  FacetOrEndsolid,
  Normal,
  NormalX,
  NormalY,
  NormalZ,
  Outer,
  Loop,
  Vertex,
  VertexX,
  VertexY,
  VertexZ,
  Endloop,
  Endfacet,
  AfterSolid,
}
const keyword = (word: string): Uint8Array => Uint8Array.from(word, (c) => c.charCodeAt(0));
const SOLID = keyword('solid');
const FACET = keyword('facet');
const ENDSOLID = keyword('endsolid');
const NORMAL = keyword('normal');
const OUTER = keyword('outer');
const LOOP = keyword('loop');
const VERTEX = keyword('vertex');
const ENDLOOP = keyword('endloop');
const ENDFACET = keyword('endfacet');

export class StlAsciiDecoder {
  // A word split across chunks is collected here; whole words are read in place from their chunk.
  private readonly word = new Uint8Array(MAX_WORD);
  private wordLength = 0;
  // The word being handled: bytes [start, end) of `text`.
  private text: Uint8Array = this.word;
  private start = 0;
  private end = 0;
  private wordLine = 1;
  private line = 1;
  private skippingLine = false;
  private state = State.Solid;
  private readonly welder: VertexWelder;
  private indices = new Uint32Array(3 * 1024);
  private corners = 0;
  private cornerInFacet = 0;
  // The current vertex rounded to float32, and its bit patterns through the same buffer.
  private readonly f32 = new Float32Array(3);
  private readonly u32 = new Uint32Array(this.f32.buffer);
  refusal: StlRefusal | null = null;

  constructor(
    byteLength: number,
    private readonly maxTriangles: number,
  ) {
    // ≈ 250 bytes of text per facet, ≈ half as many vertices as facets in a closed mesh.
    this.welder = new VertexWelder(byteLength / 500 + 16);
  }

  /** Feeds text bytes; false once the file is refused. */
  push(chunk: Uint8Array): boolean {
    if (this.refusal) return false;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.skippingLine) {
        const newline = chunk.indexOf(10, i);
        if (newline < 0) return true;
        this.skippingLine = false;
        this.line++;
        i = newline + 1;
        continue;
      }
      const b = chunk[i] as number;
      if (isSpace(b)) {
        if (this.wordLength > 0 && !this.endWord(this.word, 0, this.wordLength)) return false;
        if (b === 10) {
          this.skippingLine = false; // a name ends with its line, also when the keyword itself ended it
          this.line++;
        }
        i++;
        continue;
      }
      if (isControl(b)) return this.fail(refuse.unexpectedByte(this.line, b));
      let end = i + 1;
      while (end < n && !isSpace(chunk[end] as number) && !isControl(chunk[end] as number)) end++;
      if (this.wordLength === 0) this.wordLine = this.line;
      if (end === n || this.wordLength > 0) {
        // A word cut by the chunk's end, or the rest of one: collect it (rare, so copying is fine).
        if (this.wordLength + end - i > MAX_WORD) return this.tooLong(chunk, i);
        this.word.set(chunk.subarray(i, end), this.wordLength);
        this.wordLength += end - i;
      } else if (!this.endWord(chunk, i, end)) {
        return false;
      }
      i = end;
    }
    return true;
  }

  /** The mesh, or the refusal, once every byte has been pushed. */
  finish(): { mesh: TriangleMesh } | { refusal: StlRefusal } {
    if (!this.refusal && this.wordLength > 0) this.endWord(this.word, 0, this.wordLength);
    if (this.refusal) return { refusal: this.refusal };
    if (this.state !== State.AfterSolid) return { refusal: refuse.asciiEnded(this.wordLine) };
    if (this.corners === 0) return { refusal: refuse.noTriangles() };
    return { mesh: { positions: this.welder.finish(), indices: this.indices.slice(0, this.corners) } };
  }

  private fail(refusal: StlRefusal): false {
    this.refusal = refusal;
    return false;
  }

  private is(keywordBytes: Uint8Array): boolean {
    if (this.end - this.start !== keywordBytes.length) return false;
    for (let i = 0; i < keywordBytes.length; i++) {
      // `| 0x20` lowers ASCII letters; keywords are all letters, so this is an exact case-insensitive match.
      if (((this.text[this.start + i] as number) | 0x20) !== keywordBytes[i]) return false;
    }
    return true;
  }

  /** The current word for a message (at most 40 characters). */
  private shown(): string {
    return latin1(this.text, this.start, Math.min(this.end, this.start + 40));
  }

  private tooLong(chunk: Uint8Array, from: number): false {
    const head =
      this.wordLength > 0 ? latin1(this.word, 0, 24) : latin1(chunk, from, Math.min(chunk.length, from + 24));
    return this.fail(refuse.wordTooLong(this.wordLine, head));
  }

  private expect(keywordBytes: Uint8Array, next: State): boolean {
    if (this.is(keywordBytes)) {
      this.state = next;
      return true;
    }
    return this.unexpected(`"${latin1(keywordBytes, 0, keywordBytes.length)}"`);
  }

  private unexpected(what: string): false {
    return this.fail(refuse.expected(this.wordLine, what, this.shown()));
  }

  /** Handles the word text[start, end) against the grammar; false once refused. */
  private endWord(text: Uint8Array, start: number, end: number): boolean {
    if (end - start > MAX_WORD) return this.tooLong(text, start);
    this.text = text;
    this.start = start;
    this.end = end;
    const ok = this.step();
    this.wordLength = 0;
    return ok;
  }

  private step(): boolean {
    switch (this.state) {
      case State.Solid:
      case State.AfterSolid:
        if (!this.is(SOLID)) return this.unexpected(this.state === State.Solid ? '"solid"' : '"solid" or the end');
        this.state = State.FacetOrEndsolid;
        this.skippingLine = true;
        return true;
      case State.FacetOrEndsolid:
        if (this.is(FACET)) {
          const triangles = this.corners / 3;
          if (triangles >= this.maxTriangles) return this.fail(refuse.tooLarge(this.maxTriangles));
          this.state = State.Normal;
          return true;
        }
        if (this.is(ENDSOLID)) {
          this.state = State.AfterSolid;
          this.skippingLine = true;
          return true;
        }
        return this.unexpected('"facet" or "endsolid"');
      case State.Normal:
        return this.expect(NORMAL, State.NormalX);
      case State.NormalX:
      case State.NormalY:
      case State.NormalZ:
        if (parseDecimal(this.text, this.start, this.end) === null) return this.notANumber();
        this.state++;
        return true;
      case State.Outer:
        return this.expect(OUTER, State.Loop);
      case State.Loop:
        return this.expect(LOOP, State.Vertex);
      case State.Vertex:
        if (this.is(ENDLOOP)) return this.fail(refuse.tooFewVertices(this.wordLine, this.cornerInFacet));
        return this.expect(VERTEX, State.VertexX);
      case State.VertexX:
      case State.VertexY:
      case State.VertexZ:
        return this.coordinate(this.state - State.VertexX);
      case State.Endloop:
        if (this.is(VERTEX)) return this.fail(refuse.tooManyVertices(this.wordLine));
        return this.expect(ENDLOOP, State.Endfacet);
      case State.Endfacet:
        return this.expect(ENDFACET, State.FacetOrEndsolid);
    }
  }

  private notANumber(): false {
    return this.fail(refuse.notANumber(this.wordLine, this.shown()));
  }

  private coordinate(axis: number): boolean {
    const value = parseDecimal(this.text, this.start, this.end, true);
    if (value === null) return this.notANumber();
    this.f32[axis] = value;
    if (!Number.isFinite(this.f32[axis])) {
      const triangle = Math.floor(this.corners / 3) + 1;
      return this.fail(refuse.nonFiniteAscii(this.wordLine, triangle, this.shown()));
    }
    if (axis < 2) {
      this.state++;
      return true;
    }
    if (this.corners === this.indices.length) {
      const grown = new Uint32Array(this.indices.length * 2);
      grown.set(this.indices);
      this.indices = grown;
    }
    const u = this.u32;
    // The bits of −0 (0x80000000) become +0, so −0 and +0 weld.
    const x = (u[0] as number) === 0x80000000 ? 0 : (u[0] as number);
    const y = (u[1] as number) === 0x80000000 ? 0 : (u[1] as number);
    const z = (u[2] as number) === 0x80000000 ? 0 : (u[2] as number);
    this.indices[this.corners++] = this.welder.add(x, y, z);
    this.cornerInFacet = (this.cornerInFacet + 1) % 3;
    this.state = this.cornerInFacet === 0 ? State.Endloop : State.Vertex;
    return true;
  }
}

export function isSpace(b: number): boolean {
  return b === 32 || (b >= 9 && b <= 13);
}

/** Control bytes other than whitespace: not in a text file. */
export function isControl(b: number): boolean {
  return (b < 32 && (b < 9 || b > 13)) || b === 127;
}
