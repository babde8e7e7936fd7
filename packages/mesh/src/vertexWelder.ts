// Recently seen vertices, direct-mapped by hash: consecutive triangles of a file share corners, and this small table
// stays in cache while the main table (≈ 16 bytes × 2 per vertex) does not.
const RECENT = 16_384;
const RECENT_MASK = RECENT - 1;
// Largest filled fraction of the main table: with 16-byte slots, four to a cache line, linear probing stays short
// at 3/4, and a 1 GB file's table takes ≈ 270 MB instead of the ≈ 540 MB a load of 1/2 would need.
const MAX_LOAD = 0.75;

/**
 * Exact vertex welding while triangles stream in: corners with bit-identical float32 coordinates become one
 * vertex (−0 and +0 count as equal; callers pass +0 bits for −0). Open addressing with linear probing; each slot
 * holds the three coordinate bit patterns and the vertex index + 1 (0 = empty) side by side, so a probe costs one
 * cache line rather than two. Table and positions grow by doubling: memory follows the distinct vertices.
 */
export class VertexWelder {
  private readonly recent = new Uint32Array(RECENT * 4);
  private positions: Float32Array;
  private bits: Uint32Array;
  private table: Uint32Array;
  private mask: number;
  /** Distinct vertices so far. */
  count = 0;

  constructor(expectedVertices: number) {
    const capacity = Math.max(16, Math.ceil(expectedVertices));
    this.positions = new Float32Array(capacity * 3);
    this.bits = new Uint32Array(this.positions.buffer);
    let slots = 32;
    while (slots * MAX_LOAD < capacity) slots *= 2;
    this.table = new Uint32Array(slots * 4);
    this.mask = slots - 1;
  }

  /** Index of the vertex with these float32 bit patterns (no −0, no NaN), adding it when new. */
  add(x: number, y: number, z: number): number {
    const hash = mix(x, y, z);
    const recent = this.recent;
    const r = (hash & RECENT_MASK) * 4;
    if (recent[r] === x && recent[r + 1] === y && recent[r + 2] === z && (recent[r + 3] as number) !== 0) {
      return (recent[r + 3] as number) - 1;
    }
    const index = this.lookup(x, y, z, hash);
    recent[r] = x;
    recent[r + 1] = y;
    recent[r + 2] = z;
    recent[r + 3] = index + 1;
    return index;
  }

  private lookup(x: number, y: number, z: number, hash: number): number {
    const table = this.table;
    const mask = this.mask;
    let h = (hash & mask) * 4;
    for (;;) {
      const stored = table[h + 3] as number;
      if (stored === 0) break;
      if (table[h] === x && table[h + 1] === y && table[h + 2] === z) return stored - 1;
      h = (h + 4) & (mask * 4 + 3);
    }
    const index = this.count;
    if (index + 1 > (mask + 1) * MAX_LOAD) {
      this.growTable();
      return this.lookup(x, y, z, hash);
    }
    if (3 * index + 3 > this.bits.length) this.growPositions();
    table[h] = x;
    table[h + 1] = y;
    table[h + 2] = z;
    table[h + 3] = index + 1;
    const o = 3 * index;
    const bits = this.bits;
    bits[o] = x;
    bits[o + 1] = y;
    bits[o + 2] = z;
    this.count = index + 1;
    return index;
  }

  /** Packed xyz of the distinct vertices, in order of first appearance. */
  finish(): Float32Array {
    return this.positions.slice(0, this.count * 3);
  }

  private growPositions(): void {
    const next = new Float32Array(this.positions.length * 2);
    next.set(this.positions);
    this.positions = next;
    this.bits = new Uint32Array(next.buffer);
  }

  private growTable(): void {
    const slots = (this.mask + 1) * 2;
    const table = new Uint32Array(slots * 4);
    const mask = slots - 1;
    const bits = this.bits;
    for (let v = 0; v < this.count; v++) {
      const o = 3 * v;
      const x = bits[o] as number;
      const y = bits[o + 1] as number;
      const z = bits[o + 2] as number;
      let h = (mix(x, y, z) & mask) * 4;
      while ((table[h + 3] as number) !== 0) h = (h + 4) & (mask * 4 + 3);
      table[h] = x;
      table[h + 1] = y;
      table[h + 2] = z;
      table[h + 3] = v + 1;
    }
    this.table = table;
    this.mask = mask;
  }
}

/**
 * Hash of a vertex: the three bit patterns folded in with murmur3-style multiply–xorshift steps. The low bits
 * (which pick the slot) must depend on every input bit: coordinates of one part share exponents and often
 * their low mantissa bits, and a plain sum of products left a quarter of the recent-cache hits on the table.
 */
function mix(x: number, y: number, z: number): number {
  let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ y ^ (y >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ z ^ (z >>> 16), 0x9e3779b1);
  return (h ^ (h >>> 16)) >>> 0;
}
