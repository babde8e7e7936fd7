import { describe, expect, it } from 'vitest';
import { bandwidthFactor, kernelDensity } from './density';
import { StatsInputError } from './errors';
import { expectAllClose, expectClose, reference } from '../test/reference';

describe('kernelDensity (scipy.stats.gaussian_kde reference)', () => {
  const ref = reference();
  ref.population.columns.forEach((values, j) => {
    for (const expected of ref.density[j] ?? []) {
      it(`parameter ${j}, ${expected.rule} bandwidth, matches to 1e-6`, () => {
        const curve = kernelDensity(Float64Array.from(values), { bandwidth: expected.rule, points: expected.points });
        expectClose(curve.bandwidth, expected.bandwidth, 1e-9, 'bandwidth');
        expectAllClose(curve.x, expected.x, 1e-9, 'x');
        expectAllClose(curve.density, expected.density, 1e-6, 'density');
      });
    }
  });

  it('integrates to about one', () => {
    const values = Array.from({ length: 500 }, (_, i) => Math.sin(i) * 10 + i / 50);
    const { x, density } = kernelDensity(values, { points: 1000 });
    const step = (x[1] ?? 0) - (x[0] ?? 0);
    const area = density.reduce((s, d) => s + d * step, 0);
    expect(area).toBeGreaterThan(0.99);
    expect(area).toBeLessThan(1.001);
  });

  it('matches direct evaluation on a grid far wider than the data', () => {
    const values = [1, 2, 2.5, 7, 8, 30];
    const curve = kernelDensity(values, { from: -200, to: 250, points: 301, bandwidth: 'silverman' });
    const h = curve.bandwidth;
    curve.x.forEach((xj, j) => {
      const direct =
        values.reduce((s, v) => s + Math.exp(-0.5 * ((xj - v) / h) ** 2), 0) /
        (values.length * h * Math.sqrt(2 * Math.PI));
      if (direct > 1e-250) expectClose(curve.density[j], direct, 1e-9, `x=${xj}`);
    });
  });

  it('uses Scott n^-1/5 and Silverman (3n/4)^-1/5 factors', () => {
    expect(bandwidthFactor(32, 'scott')).toBeCloseTo(0.5, 12);
    expect(bandwidthFactor(32, 'silverman')).toBeCloseTo(Math.pow(24, -0.2), 12);
  });

  it('refuses constant values and too small grids', () => {
    expect(() => kernelDensity([3, 3, 3])).toThrow(StatsInputError);
    expect(() => kernelDensity([1, 2, 3], { points: 1 })).toThrow(StatsInputError);
  });
});
