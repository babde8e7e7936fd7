import type { TriangleMesh } from './types';
import { isControl, isSpace, StlAsciiDecoder } from './stlAsciiDecoder';
import { StlBinaryDecoder } from './stlBinaryDecoder';
import { refuse, type StlRefusal } from './stlRefusal';

export type StlFormat = 'binary' | 'ascii';

/** A parsed STL (welded, indexed, float32 positions as stored, normally mm) or why it was refused. */
export type StlParseResult =
  | { readonly ok: true; readonly format: StlFormat; readonly mesh: TriangleMesh }
  | { readonly ok: false; readonly refusal: StlRefusal };

/** Incremental STL parser: push the file's bytes in order, in chunks of any size, then finish. */
export interface StlParser {
  /** Feeds the next bytes; false once the file is refused (the caller may stop reading). */
  push(chunk: Uint8Array): boolean;
  /** The result; call after the last chunk, or as soon as `push` returned false. */
  finish(): StlParseResult;
}

/** Most triangles one file may have (5 GB as binary STL; uploads are far smaller). */
export const MAX_STL_TRIANGLES = 100_000_000;

/** Bytes looked at to tell ASCII from binary when the size rule does not settle it. */
const HEAD = 1024;

/**
 * A parser for a file of `byteLength` bytes. Format: a file is binary when its size is exactly 84 + 50·n for the
 * n in bytes 80–83 (at most 84 + 50·(2³²−1) ≈ 2.1·10¹¹, exact in a double, so no overflow; nothing is allocated
 * before this check). This holds even when the 80-byte header starts with "solid", as many exporters write. An
 * ASCII file cannot pass it: its bytes 80–83 are text (≥ 0x09 each), so n ≥ 0x09090909 and the size would be
 * over 7.5 GB. Otherwise the file is ASCII when it starts with "solid" and its first kilobyte holds no control
 * bytes, and a binary file of the wrong size (truncated, inflated count, trailing bytes) otherwise.
 */
export function createStlParser(byteLength: number): StlParser {
  return new StlStreamParser(byteLength);
}

/** Parses a whole file held in memory. Never throws for any bytes: a bad file gives `{ ok: false, refusal }`. */
export function parseStl(bytes: Uint8Array): StlParseResult {
  const parser = createStlParser(bytes.length);
  parser.push(bytes);
  return parser.finish();
}

/**
 * Parses a file read in chunks (e.g. a Node read stream, or a web `ReadableStream` turned into an async
 * iterable), stopping at the first refusal. `byteLength` is the file's size as stored.
 */
export async function parseStlChunks(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  byteLength: number,
): Promise<StlParseResult> {
  const parser = createStlParser(byteLength);
  for await (const chunk of chunks) {
    if (!parser.push(chunk)) break;
  }
  return parser.finish();
}

class StlStreamParser implements StlParser {
  private readonly head: Uint8Array;
  private headLength = 0;
  private received = 0;
  private decoder: StlBinaryDecoder | StlAsciiDecoder | null = null;
  private refusal: StlRefusal | null = null;

  constructor(private readonly byteLength: number) {
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) throw new RangeError('STL: byteLength must be ≥ 0');
    this.head = new Uint8Array(Math.min(byteLength, HEAD));
  }

  push(chunk: Uint8Array): boolean {
    this.received += chunk.length;
    if (this.received > this.byteLength) {
      throw new RangeError(`STL: received more than the announced ${this.byteLength} bytes`);
    }
    if (this.refusal) return false;
    let rest = chunk;
    if (this.headLength < this.head.length) {
      const take = Math.min(this.head.length - this.headLength, chunk.length);
      this.head.set(chunk.subarray(0, take), this.headLength);
      this.headLength += take;
      rest = chunk.subarray(take);
      if (this.headLength < this.head.length) return true;
      if (!this.decide()) return false;
    }
    return this.feed(rest);
  }

  finish(): StlParseResult {
    if (!this.refusal && this.received !== this.byteLength) {
      throw new RangeError(`STL: finish() after ${this.received} of ${this.byteLength} bytes`);
    }
    if (!this.refusal && this.decoder === null) this.decide(); // only an empty file gets here undecided
    if (this.refusal) return { ok: false, refusal: this.refusal };
    if (this.decoder instanceof StlBinaryDecoder) return { ok: true, format: 'binary', mesh: this.decoder.finish() };
    const ascii = (this.decoder as StlAsciiDecoder).finish();
    return 'refusal' in ascii ? { ok: false, refusal: ascii.refusal } : { ok: true, format: 'ascii', mesh: ascii.mesh };
  }

  private feed(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return true;
    const decoder = this.decoder as StlBinaryDecoder | StlAsciiDecoder;
    if (decoder.push(bytes)) return true;
    this.refusal = decoder.refusal;
    return false;
  }

  /** Chooses the format from the size and the head, then feeds the head to the decoder. */
  private decide(): boolean {
    const size = this.byteLength;
    const head = this.head;
    if (size === 0) return this.fail(refuse.empty());
    let announced = 0;
    let needed = 0;
    if (size >= 84) {
      announced = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
      needed = 84 + 50 * announced;
      if (needed === size) {
        if (announced === 0) return this.fail(refuse.noTriangles());
        if (announced > MAX_STL_TRIANGLES) return this.fail(refuse.tooLarge(MAX_STL_TRIANGLES, announced));
        this.decoder = new StlBinaryDecoder(announced);
        return this.feed(head.subarray(84));
      }
    }
    const text = asciiStart(head);
    if (text >= 0) {
      this.decoder = new StlAsciiDecoder(size, MAX_STL_TRIANGLES);
      return this.feed(head.subarray(text));
    }
    if (size < 84) return this.fail(refuse.notStl(size));
    if (size > needed) return this.fail(refuse.trailingBytes(announced, needed, size));
    if ((size - 84) % 50 === 0) return this.fail(refuse.countExceedsFile(announced, needed, size));
    return this.fail(refuse.truncated(announced, needed, size));
  }

  private fail(refusal: StlRefusal): false {
    this.refusal = refusal;
    return false;
  }
}

/**
 * Where the text starts (after a UTF-8 byte-order mark) when `head` reads as the start of an ASCII STL: "solid"
 * in any case, after optional whitespace, followed by whitespace or the end, and no control bytes; −1 otherwise.
 */
function asciiStart(head: Uint8Array): number {
  if (head.some(isControl)) return -1;
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  let i = start;
  while (i < head.length && isSpace(head[i] as number)) i++;
  const word = 'solid';
  for (let k = 0; k < word.length; k++, i++) {
    if (i >= head.length || ((head[i] as number) | 0x20) !== word.charCodeAt(k)) return -1;
  }
  const after = head[i];
  if (after !== undefined && !isSpace(after)) return -1;
  return start;
}
