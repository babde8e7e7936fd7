/**
 * Seed mixing: a 32-bit finaliser (the "lowbias32" constants of Chris Wellons' hash-prospector)
 * and FNV-1a for text seeds. Integer arithmetic only (Math.imul, >>>), so every machine agrees.
 */

/** Mixes a 32-bit integer into a well-distributed 32-bit unsigned integer (bijective). */
export function mix32(value: number): number {
  let z = value >>> 0;
  z ^= z >>> 16;
  z = Math.imul(z, 0x21f0aaad);
  z ^= z >>> 15;
  z = Math.imul(z, 0x735a2d97);
  z ^= z >>> 15;
  return z >>> 0;
}

/** Hashes a text (UTF-16 code units) to an unsigned 32-bit seed with FNV-1a followed by {@link mix32}. */
export function seedFromString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/**
 * Derives the seed of one independent stream (e.g. stream 1 = patient parameters, index = patient index)
 * from a population seed, so that patient i is the same whatever the population size.
 */
export function deriveSeed(seed: number, stream: number, index: number): number {
  const a = mix32((seed >>> 0) ^ 0x9e3779b9);
  const b = mix32(Math.imul(stream >>> 0, 0x85ebca6b) ^ 0xc2b2ae35);
  const c = mix32(Math.imul(index >>> 0, 0x27d4eb2f) + 0x165667b1);
  return mix32(a ^ mix32(b ^ c));
}
