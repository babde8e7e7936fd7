import { describe, expect, it } from 'vitest';
import { convergenceLines, formatGci, gridConvergence } from './gci';

/** Celik et al. (2008), Table 1: a 2D grid's representative size h = (area / N)^(1/2), so h ∝ N^(−1/2). */
const celikH = (n: number[]): [number, number, number] => n.map((k) => 1 / Math.sqrt(k)) as [number, number, number];

describe('grid convergence index (Celik et al. 2008)', () => {
  it('reproduces the worked example of Celik et al. 2008, Table 1, column 1 (reattachment length, monotonic)', () => {
    // N = 18,000 / 8,000 / 4,500 cells, φ = 6.063 / 5.972 / 5.863. Published: r21 = 1.5, r32 = 1.333, p = 1.53,
    // φ_ext = 6.1685, e_a21 = 1.5 %, e_ext21 = 1.7 %, GCI_fine21 = 2.2 %.
    const g = gridConvergence(celikH([18000, 8000, 4500]), [6.063, 5.972, 5.863]);
    expect(g.r21).toBeCloseTo(1.5, 10);
    expect(g.r32).toBeCloseTo(1.3333, 4);
    expect(g.kind).toBe('monotonic');
    expect(g.order).toBeCloseTo(1.53, 2);
    expect(g.extrapolated).toBeCloseTo(6.1685, 3);
    expect(g.relativeError21 * 100).toBeCloseTo(1.5, 1);
    expect(g.extrapolatedError21 * 100).toBeCloseTo(1.7, 1);
    expect(g.gci21 * 100).toBeCloseTo(2.2, 1);
  });

  it('oscillatory convergence (Table 1, column 3: N = 18,000 / 4,500 / 980) and an exact second-order sequence', () => {
    const osc = gridConvergence(celikH([18000, 4500, 980]), [6.0042, 5.9624, 6.0909]);
    expect(osc.kind).toBe('oscillatory');
    // The fixed point of eqs. 3a–3c for these numbers (an independent implementation of the same procedure,
    // oscar-monsalve/GCI tests/test_2d_p_value_oscillatory.py, gets 1.50769168965166).
    expect(osc.order).toBeCloseTo(1.50769, 4);
    // φ(h) = 1 + 0.3 h²: p = 2 exactly, φ_ext = 1, and the asymptotic ratio is 1 up to the normalisation of the
    // relative errors (by φ₁ for GCI₂₁, by φ₂ for GCI₃₂): φ₁/φ₂.
    const h: [number, number, number] = [0.05, 0.1, 0.2];
    const phi = h.map((x) => 1 + 0.3 * x * x) as [number, number, number];
    const exact = gridConvergence(h, phi);
    expect(exact.order).toBeCloseTo(2, 9);
    expect(exact.extrapolated).toBeCloseTo(1, 12);
    expect(exact.asymptoticRatio).toBeCloseTo(phi[0] / phi[1], 9);
    // Unequal ratios, first order with a small second-order part: p near 1, φ_ext near the limit.
    const h2: [number, number, number] = [1 / 40, 1 / 25, 1 / 14];
    const first = gridConvergence(h2, h2.map((x) => 2 - 0.5 * x) as [number, number, number]);
    expect(first.order).toBeCloseTo(1, 9);
    expect(first.extrapolated).toBeCloseTo(2, 12);
  });

  it('refuses spacings out of order, too close, and reports an unchanged solution as converged', () => {
    expect(() => gridConvergence([0.2, 0.1, 0.05], [1, 2, 3])).toThrow(/increasing/);
    expect(() => gridConvergence([0.1, 0.105, 0.2], [1, 2, 3])).toThrow(/at least 1.1/);
    expect(() => gridConvergence([0.1, 0.2, 0.4], [1, Number.NaN, 3])).toThrow(/finite/);
    expect(gridConvergence([0.1, 0.2, 0.4], [1, 1, 1.2]).kind).toBe('converged');
  });

  it('writes a three-resolution study as one line per quantity, finest spacing first, or why it has no order', () => {
    // Rows in any order; an exact second-order sequence φ = 1 + h² and one whose spacings are too close.
    const rows = [0.4, 0.1, 0.2].map((h) => ({ h, phi: 1 + h * h }));
    const [ordered, flat] = convergenceLines(rows, (r) => r.h, [
      ['phi', (r) => r.phi],
      ['nan', () => Number.NaN],
    ]);
    const h: [number, number, number] = [0.1, 0.2, 0.4];
    const phi = h.map((x) => 1 + x * x) as [number, number, number];
    expect(ordered).toBe(formatGci('phi', h, phi, gridConvergence(h, phi)));
    expect(flat).toMatch(/^nan .*finite/);
    expect(() => convergenceLines(rows.slice(1), (r) => r.h, [])).toThrow(/three resolutions/);
  });
});
