import { describe, expect, it } from 'vitest';
import { PeriodicFrames, type FrameInterpolation } from './periodicFrames';

// One "vertex" whose three coordinates follow smooth periodic functions of known derivatives, sampled at K frames.
const T = 0.8;
const W = (2 * Math.PI) / T;
const exact = (t: number): { p: number[]; v: number[]; a: number[] } => ({
  p: [Math.sin(W * t), 2 + Math.cos(W * t), 0.5 * Math.sin(2 * W * t)],
  v: [W * Math.cos(W * t), -W * Math.sin(W * t), W * Math.cos(2 * W * t)],
  a: [-W * W * Math.sin(W * t), -W * W * Math.cos(W * t), -2 * W * W * Math.sin(2 * W * t)],
});

function frames(times: number[], interpolation: FrameInterpolation): PeriodicFrames {
  return new PeriodicFrames({
    positions: times.map((t) => Float64Array.from(exact(t).p)),
    times,
    period: T,
    interpolation,
  });
}

function at(f: PeriodicFrames, t: number): { p: Float64Array; v: Float64Array; a: Float64Array } {
  const p = new Float64Array(3);
  const v = new Float64Array(3);
  const a = new Float64Array(3);
  f.evaluate(t, p, v, a);
  return { p, v, a };
}

const uniform = (k: number): number[] => Array.from({ length: k }, (_, i) => (i * T) / k);

describe('periodic interpolation between mesh frames', () => {
  it('passes through every frame and repeats with the period, both interpolations', () => {
    const times = [0, 0.05, 0.2, 0.31, 0.5, 0.62];
    for (const kind of ['linear', 'cubic'] as const) {
      const f = frames(times, kind);
      for (const t of times) {
        const { p } = at(f, t);
        exact(t).p.forEach((e, c) => expect(p[c]).toBeCloseTo(e, 12));
        const later = at(f, t + 3 * T).p;
        const earlier = at(f, t - 2 * T).p;
        for (let c = 0; c < 3; c++) {
          expect(later[c]).toBeCloseTo(p[c]!, 9);
          expect(earlier[c]).toBeCloseTo(p[c]!, 9);
        }
      }
    }
  });

  it('cubic: position, velocity and acceleration of a smooth periodic motion within the spline error bounds (16 frames)', () => {
    // Periodic cubic spline errors for a step h: position ≤ 5/384 h⁴ max|f⁗|, velocity ≤ h³/24 max|f⁗|,
    // acceleration ≤ 3/8 h² max|f⁗| (Hall & Meyer 1976). Here h = T/16 and max|f⁗| = 8 W⁴ (the 2W term, amplitude 0.5).
    const h = T / 16;
    const f4 = 8 * W ** 4;
    const f = frames(uniform(16), 'cubic');
    let ep = 0;
    let ev = 0;
    let ea = 0;
    for (let s = 0; s < 400; s++) {
      const t = (s * T) / 400 + 1e-4;
      const got = at(f, t);
      const e = exact(t);
      for (let c = 0; c < 3; c++) {
        ep = Math.max(ep, Math.abs(got.p[c]! - e.p[c]!));
        ev = Math.max(ev, Math.abs(got.v[c]! - e.v[c]!));
        ea = Math.max(ea, Math.abs(got.a[c]! - e.a[c]!));
      }
    }
    expect(ep).toBeLessThan((5 / 384) * h ** 4 * f4);
    expect(ev).toBeLessThan((h ** 3 / 24) * f4);
    expect(ea).toBeLessThan((3 / 8) * h * h * f4);
    // And small in absolute terms: under 0.2 % of the amplitude, 1 % of the speed, 6 % of the acceleration.
    expect(ep).toBeLessThan(2e-3);
    expect(ev / (2 * W)).toBeLessThan(0.01);
    expect(ea / (4 * W * W)).toBeLessThan(0.06);
  });

  it('the velocity is the time derivative of the position and the acceleration that of the velocity (uneven frames)', () => {
    const times = [0, 0.07, 0.15, 0.33, 0.4, 0.58, 0.7];
    for (const kind of ['linear', 'cubic'] as const) {
      const f = frames(times, kind);
      const d = 1e-6;
      for (const t of [0.01, 0.1, 0.2, 0.37, 0.5, 0.65, 0.75, 0.79]) {
        const mid = at(f, t);
        const hi = at(f, t + d);
        const lo = at(f, t - d);
        for (let c = 0; c < 3; c++) {
          expect(mid.v[c]).toBeCloseTo((hi.p[c]! - lo.p[c]!) / (2 * d), 4);
          expect(mid.a[c]).toBeCloseTo((hi.v[c]! - lo.v[c]!) / (2 * d), kind === 'cubic' ? 3 : 12);
        }
      }
    }
  });

  it('cubic: velocity and acceleration continuous at the frames and across the period', () => {
    const times = [0, 0.07, 0.15, 0.33, 0.4, 0.58, 0.7];
    const f = frames(times, 'cubic');
    const d = 1e-9;
    for (const t of [...times.slice(1), T]) {
      const before = at(f, t - d);
      const after = at(f, t + d);
      for (let c = 0; c < 3; c++) {
        expect(after.v[c]).toBeCloseTo(before.v[c]!, 5);
        expect(after.a[c]).toBeCloseTo(before.a[c]!, 4);
      }
    }
  });

  it('linear: straight between frames at constant velocity', () => {
    const f = frames([0, 0.2, 0.5], 'linear');
    const { p, v, a } = at(f, 0.35);
    const p0 = exact(0.2).p;
    const p1 = exact(0.5).p;
    for (let c = 0; c < 3; c++) {
      expect(p[c]).toBeCloseTo((p0[c]! + p1[c]!) / 2, 12);
      expect(v[c]).toBeCloseTo((p1[c]! - p0[c]!) / 0.3, 10);
      expect(a[c]).toBe(0);
    }
    // The last interval closes the period back to frame 0.
    const back = at(f, 0.65).v;
    for (let c = 0; c < 3; c++) expect(back[c]).toBeCloseTo((exact(0).p[c]! - p1[c]!) / 0.3, 10);
  });

  it('refuses frames that do not make a period', () => {
    const one = Float64Array.from([0, 0, 0]);
    const make = (times: number[], period = 1, positions = times.map(() => one)) =>
      new PeriodicFrames({ positions, times, period });
    expect(() => make([0])).toThrow(/at least two frames/);
    expect(() => make([0.1, 0.5])).toThrow(/time 0/);
    expect(() => make([0, 0.5, 0.5])).toThrow(/rise strictly/);
    expect(() => make([0, 1])).toThrow(/before the period/);
    expect(() => make([0, 0.5], 0)).toThrow(/period must be positive/);
    expect(() => make([0, 0.5], 1, [one, new Float64Array(6)])).toThrow(/must correspond/);
  });
});
