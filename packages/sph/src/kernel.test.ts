import { describe, expect, it } from 'vitest';
import { WendlandC2, smoothingLength } from './kernel';

describe('WendlandC2', () => {
  it('integrates to one in 2D and 3D', () => {
    const h = 0.13;
    const k2 = new WendlandC2(h, 2);
    const k3 = new WendlandC2(h, 3);
    const n = 4000;
    const dr = k2.cutoff / n;
    let i2 = 0;
    let i3 = 0;
    for (let s = 0; s < n; s++) {
      const r = (s + 0.5) * dr;
      i2 += 2 * Math.PI * r * k2.w(r) * dr;
      i3 += 4 * Math.PI * r * r * k3.w(r) * dr;
    }
    expect(i2).toBeCloseTo(1, 6);
    expect(i3).toBeCloseTo(1, 6);
  });

  it('vanishes at the support radius 2h, and dW/dr matches a finite difference', () => {
    const k = new WendlandC2(0.5, 3);
    expect(k.w(1)).toBe(0);
    expect(k.dw(1.2)).toBe(0);
    for (const r of [0.05, 0.3, 0.61, 0.9]) {
      const fd = (k.w(r + 1e-6) - k.w(r - 1e-6)) / 2e-6;
      expect(k.dw(r)).toBeCloseTo(fd, 5);
      expect(k.dw(r)).toBeLessThan(0);
    }
    expect(k.dw(0)).toBe(-0);
  });

  it('gives the lattice number density and gradient moment used to normalise sums', () => {
    const dp = 0.05;
    const k = new WendlandC2(smoothingLength(dp), 2);
    expect(k.latticeNumberDensity(dp) * dp * dp).toBeCloseTo(1.0105, 3);
    expect(k.latticeGradientMoment(dp)).toBeCloseTo(0.974, 3);
    const k3 = new WendlandC2(smoothingLength(dp), 3);
    expect(k3.latticeNumberDensity(dp) * dp ** 3).toBeGreaterThan(0.98);
    expect(k3.latticeGradientMoment(dp)).toBeGreaterThan(0.95);
  });
});
