import { mix32 } from './seed';

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;

/**
 * xoshiro128** 1.1 (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c), a 32-bit-state
 * generator with period 2^128 − 1, seeded through a SplitMix32-style sequence of {@link mix32}.
 *
 * Determinism: only 32-bit integer operations (Math.imul, shifts) produce the bits; doubles are built from
 * 53 of them exactly; normals use the Marsaglia polar method (Math.log and Math.sqrt). Math.sqrt is
 * correctly rounded by IEEE 754; Math.log is V8's own fdlibm port (not the C library), so it gives the same
 * bits on every platform for a given Node/V8 version. Assumption: same Node major (20) everywhere.
 * Math.random is never used.
 */
export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal = 0;
  private hasSpare = false;

  /** @param seed any 32-bit integer (taken modulo 2^32). */
  constructor(seed: number) {
    const x = seed >>> 0;
    this.s0 = mix32((x + 0x9e3779b9) >>> 0);
    this.s1 = mix32((x + 2 * 0x9e3779b9) >>> 0);
    this.s2 = mix32((x + 3 * 0x9e3779b9) >>> 0);
    this.s3 = mix32((x + 4 * 0x9e3779b9) >>> 0);
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Builds a generator from an explicit non-zero 128-bit state (four uint32 words), e.g. for reference vectors. */
  static fromState(s0: number, s1: number, s2: number, s3: number): Xoshiro128 {
    const rng = new Xoshiro128(0);
    rng.s0 = s0 | 0;
    rng.s1 = s1 | 0;
    rng.s2 = s2 | 0;
    rng.s3 = s3 | 0;
    return rng;
  }

  /** Next unsigned 32-bit integer in [0, 2^32). */
  nextUint32(): number {
    const s1 = this.s1;
    const product = Math.imul(s1, 5);
    const rotated = (product << 7) | (product >>> 25);
    const result = Math.imul(rotated, 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits (exactly representable, no rounding). */
  nextFloat(): number {
    const a = this.nextUint32() >>> 5; // 27 bits
    const b = this.nextUint32() >>> 6; // 26 bits
    return (a * TWO_POW_26 + b) / TWO_POW_53;
  }

  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32, without modulo bias (rejection sampling). */
  nextInt(n: number): number {
    if (!(n >= 1 && n <= 4294967296) || Math.floor(n) !== n) throw new RangeError(`nextInt: bad bound ${n}`);
    const limit = 4294967296 - (4294967296 % n);
    for (;;) {
      const r = this.nextUint32();
      if (r < limit) return r % n;
    }
  }

  /** Bernoulli draw: true with probability p (0 ≤ p ≤ 1). */
  nextBernoulli(p: number): boolean {
    return this.nextFloat() < p;
  }

  /** Standard normal N(0, 1) by the Marsaglia polar method (pairs; the spare is cached). */
  nextNormal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spareNormal;
    }
    for (;;) {
      const u = 2 * this.nextFloat() - 1;
      const v = 2 * this.nextFloat() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const factor = Math.sqrt((-2 * Math.log(s)) / s);
        this.spareNormal = v * factor;
        this.hasSpare = true;
        return u * factor;
      }
    }
  }

  /** Fills `out` with independent standard normals and returns it (no allocation). */
  fillNormal(out: Float64Array): Float64Array {
    for (let i = 0; i < out.length; i += 1) out[i] = this.nextNormal();
    return out;
  }
}
