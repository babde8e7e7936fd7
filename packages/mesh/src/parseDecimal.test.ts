import { describe, expect, it } from 'vitest';
import { parseDecimal } from './parseDecimal';
import { random32 } from '../test/stlCorpus';

const parse = (s: string): number | null => parseDecimal(new TextEncoder().encode(s), 0, s.length);

describe('parseDecimal', () => {
  it('reads the number forms STL exporters write', () => {
    const cases: [string, number][] = [
      ['0', 0],
      ['-0', -0],
      ['+12', 12],
      ['1.5', 1.5],
      ['.5', 0.5],
      ['5.', 5],
      ['-1.25e3', -1250],
      ['1E-3', 0.001],
      ['1.000000e+01', 10],
      ['-2.22044604925031308e-16', -2.220446049250313e-16],
      ['123456789012345678901234567890', 1.2345678901234568e29],
      ['1e-30', 1e-30],
      ['0.000000000000000000000000001', 1e-27],
    ];
    for (const [s, v] of cases) expect(parse(s), s).toBe(v);
    expect(Object.is(parse('-0'), -0)).toBe(true);
  });

  it('reads nan and infinity in any case, so the caller can refuse them by value', () => {
    expect(parse('nan')).toBeNaN();
    expect(parse('-NaN')).toBeNaN();
    expect(parse('inf')).toBe(Infinity);
    expect(parse('-Infinity')).toBe(-Infinity);
    expect(parse('1e400')).toBe(Infinity);
  });

  it('refuses what is not a number', () => {
    for (const s of ['', '-', '.', 'e5', '1e', '1e+', '1.2.3', '0,5', '0x10', '1f', 'abc', '--1', '1 2', 'nanx']) {
      expect(parse(s), s).toBeNull();
    }
  });

  it('agrees with Number() on 20,000 random decimal strings (fast and slow paths)', () => {
    const random = random32(42);
    for (let i = 0; i < 20_000; i++) {
      const digits = 1 + Math.floor(random() * 20);
      let s = random() < 0.5 ? '-' : '';
      for (let d = 0; d < digits; d++) s += String(Math.floor(random() * 10));
      const point = Math.floor(random() * (digits + 1));
      s = `${s.slice(0, s.length - point)}.${s.slice(s.length - point)}`;
      if (random() < 0.5) s += `e${Math.floor(random() * 80) - 40}`;
      expect(parse(s), s).toBe(Number(s));
    }
  });

  it('float32 mode equals Math.fround(Number(text)), also for 16 to 25 digits and near float32 ties', () => {
    const random = random32(7);
    const tie = 1 + 2 ** -24; // halfway between two float32 neighbours of 1
    const cases = ['1.00000005960464477539062500001', '1.000000059604644775390625', tie.toPrecision(21)];
    for (let i = 0; i < 20_000; i++) {
      const digits = 16 + Math.floor(random() * 10);
      let s = '';
      for (let d = 0; d < digits; d++) s += String(Math.floor(random() * 10));
      const point = Math.floor(random() * (digits + 1));
      cases.push(
        `${random() < 0.5 ? '-' : ''}${s.slice(0, point)}.${s.slice(point)}e${Math.floor(random() * 40) - 30}`,
      );
    }
    for (const s of cases) {
      const bytes = new TextEncoder().encode(s);
      expect(parseDecimal(bytes, 0, bytes.length, true), s).toBe(Math.fround(Number(s)));
    }
  });
});
