/**
 * A seeded uniform generator on [0, 1): Mulberry32 (Tommy Ettinger, 2017), 32-bit state.
 * Chosen because it is tiny and bit-exactly reproducible in Python (tools/stats-reference), so the
 * reference fixtures replay the same random draws. Not for cryptography.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
