import { describe, expect, it } from 'vitest';
import { deriveSeed, mix32, seedFromString } from './seed';
import { Xoshiro128 } from './xoshiro128';

describe('Xoshiro128', () => {
  it('matches the reference C implementation (state 1, 2, 3, 4)', () => {
    const rng = Xoshiro128.fromState(1, 2, 3, 4);
    const out = Array.from({ length: 6 }, () => rng.nextUint32());
    // Output of prng.di.unimi.it/xoshiro128starstar.c compiled with gcc.
    expect(out).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const a = new Xoshiro128(42);
    const b = new Xoshiro128(42);
    const c = new Xoshiro128(43);
    const sa = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(sa);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(sa);
  });

  it('draws uniforms in [0, 1) with mean 1/2 and variance 1/12', () => {
    const rng = new Xoshiro128(7);
    const n = 100_000;
    let sum = 0;
    let sum2 = 0;
    let inRange = true;
    for (let i = 0; i < n; i += 1) {
      const u = rng.nextFloat();
      inRange &&= u >= 0 && u < 1;
      sum += u;
      sum2 += u * u;
    }
    expect(inRange).toBe(true);
    const mean = sum / n;
    expect(mean).toBeCloseTo(0.5, 2);
    expect(sum2 / n - mean * mean).toBeCloseTo(1 / 12, 2);
  });

  it('draws standard normals (mean 0, SD 1, skewness 0, kurtosis 3)', () => {
    const rng = new Xoshiro128(11);
    const n = 200_000;
    let m1 = 0;
    let m2 = 0;
    let m3 = 0;
    let m4 = 0;
    for (let i = 0; i < n; i += 1) {
      const z = rng.nextNormal();
      m1 += z;
      m2 += z * z;
      m3 += z * z * z;
      m4 += z * z * z * z;
    }
    expect(Math.abs(m1 / n)).toBeLessThan(0.01);
    expect(Math.abs(m2 / n - 1)).toBeLessThan(0.01);
    expect(Math.abs(m3 / n)).toBeLessThan(0.03);
    expect(Math.abs(m4 / n - 3)).toBeLessThan(0.06);
  });

  it('draws unbiased integers in [0, n)', () => {
    const rng = new Xoshiro128(3);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i += 1) {
      const k = rng.nextInt(6);
      counts[k] = (counts[k] ?? 0) + 1;
    }
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(400);
    expect(() => rng.nextInt(0)).toThrow(RangeError);
  });
});

describe('seeds', () => {
  it('mixes and hashes deterministically to uint32', () => {
    expect(mix32(0)).toBe(0);
    expect(mix32(1)).toBe(mix32(1));
    expect(seedFromString('cohort-1')).toBe(seedFromString('cohort-1'));
    expect(seedFromString('cohort-1')).not.toBe(seedFromString('cohort-2'));
    const s = deriveSeed(1, 1, 5);
    expect(Number.isInteger(s) && s >= 0 && s < 2 ** 32).toBe(true);
    expect(deriveSeed(1, 1, 5)).not.toBe(deriveSeed(1, 2, 5));
    expect(deriveSeed(1, 1, 5)).not.toBe(deriveSeed(1, 1, 6));
  });
});
