import type { TriangleMesh } from './types';
import { refuse, type StlRefusal } from './stlRefusal';
import { VertexWelder } from './vertexWelder';

const RECORD = 50;
const EXPONENT = 0x7f800000;
const NEGATIVE_ZERO = 0x80000000;

/**
 * Decodes the 50-byte facet records of a binary STL (what follows the 84-byte header) chunk by chunk into an
 * indexed mesh: a record split across chunks is carried over, stored normals and attribute words are ignored,
 * corners are welded on their float32 bits. The caller has checked the file size, so `triangles` is trusted.
 */
export class StlBinaryDecoder {
  private readonly indices: Uint32Array;
  private readonly welder: VertexWelder;
  private readonly carry = new Uint8Array(RECORD);
  private carried = 0;
  private decoded = 0;
  refusal: StlRefusal | null = null;

  constructor(private readonly triangles: number) {
    this.indices = new Uint32Array(triangles * 3);
    // A closed mesh has about half as many vertices as triangles; the welder grows if there are more.
    this.welder = new VertexWelder(triangles / 2 + 16);
  }

  /** Feeds facet bytes; false once the file is refused (further bytes are ignored). */
  push(chunk: Uint8Array): boolean {
    if (this.refusal) return false;
    let offset = 0;
    if (this.carried > 0) {
      offset = Math.min(RECORD - this.carried, chunk.length);
      this.carry.set(chunk.subarray(0, offset), this.carried);
      this.carried += offset;
      if (this.carried < RECORD) return true;
      this.carried = 0;
      if (!this.decode(new DataView(this.carry.buffer), 0, 1)) return false;
    }
    const whole = Math.floor((chunk.length - offset) / RECORD);
    if (whole > 0 && !this.decode(new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), offset, whole)) {
      return false;
    }
    offset += whole * RECORD;
    this.carry.set(chunk.subarray(offset), 0);
    this.carried = chunk.length - offset;
    return true;
  }

  /** The mesh once every record has been pushed. */
  finish(): TriangleMesh {
    return { positions: this.welder.finish(), indices: this.indices };
  }

  private decode(view: DataView, offset: number, records: number): boolean {
    const indices = this.indices;
    const welder = this.welder;
    const count = Math.min(records, this.triangles - this.decoded);
    let o = offset + 12; // skip the stored normal
    let c = this.decoded * 3;
    for (let t = 0; t < count; t++, o += RECORD) {
      for (let k = 0; k < 12 * 3; k += 12) {
        let x = view.getUint32(o + k, true);
        let y = view.getUint32(o + k + 4, true);
        let z = view.getUint32(o + k + 8, true);
        // All exponent bits set = NaN or ±Infinity.
        if ((x & EXPONENT) === EXPONENT || (y & EXPONENT) === EXPONENT || (z & EXPONENT) === EXPONENT) {
          this.refusal = refuse.nonFiniteBinary(this.decoded + t + 1);
          return false;
        }
        if (x === NEGATIVE_ZERO) x = 0;
        if (y === NEGATIVE_ZERO) y = 0;
        if (z === NEGATIVE_ZERO) z = 0;
        indices[c++] = welder.add(x, y, z);
      }
    }
    this.decoded += count;
    return true;
  }
}
