import { describe, expect, it } from 'vitest';
import { StatsInputError } from './errors';
import { extremeCases } from './extremeCases';
import { matrixFromColumns } from './matrix';
import { expectClose, reference, referenceMatrix } from '../test/reference';

describe('extremeCases (independent numpy implementation)', () => {
  const ref = reference();
  for (const [key, e] of Object.entries(ref.extremeCases)) {
    const [seed, count, kept] = key.split('-').map(Number);
    it(`seed ${seed}, ${count} cases, ${kept} of the variance: same patients, clusters and distances`, () => {
      const result = extremeCases(referenceMatrix(), { seed, count, varianceKept: kept });
      expect(result.components).toBe(e.components);
      expectClose(result.explainedVariance, e.explainedVariance, 1e-9, 'explained');
      expect(Array.from(result.assignments)).toEqual(e.assignments);
      expect(result.iterations).toBe(e.iterations);
      expect(result.cases.map((c) => [c.row, c.cluster, c.clusterSize])).toEqual(
        e.cases.map((c) => [c.row, c.cluster, c.clusterSize]),
      );
      result.cases.forEach((c, i) => expectClose(c.distance, e.cases[i]?.distance, 1e-9, `distance ${i}`));
    });
  }

  it('is deterministic and returns real, distinct patients', () => {
    const a = extremeCases(referenceMatrix());
    const b = extremeCases(referenceMatrix());
    expect(a.cases).toEqual(b.cases);
    expect(new Set(a.cases.map((c) => c.row)).size).toBe(a.cases.length);
    expect(a.cases.length).toBe(5);
  });

  it('finds the corners of a two-cluster population', () => {
    const x = Float64Array.from({ length: 40 }, (_, i) => (i < 20 ? 0 : 10) + (i % 5) * 0.1);
    const y = Float64Array.from({ length: 40 }, (_, i) => (i % 7) * 0.2);
    const result = extremeCases(matrixFromColumns([x, y]), { count: 2 });
    expect(result.cases.length).toBe(2);
    const rows = result.cases.map((c) => c.row);
    expect(rows.some((r) => r < 20)).toBe(true);
    expect(rows.some((r) => r >= 20)).toBe(true);
  });

  it('allows at most five cases and ignores constant parameters', () => {
    expect(() => extremeCases(referenceMatrix(), { count: 6 })).toThrow(StatsInputError);
    const x = Float64Array.from({ length: 30 }, (_, i) => i);
    const c = new Float64Array(30).fill(3);
    expect(extremeCases(matrixFromColumns([x, c]), { count: 2 }).cases.length).toBe(2);
    expect(() => extremeCases(matrixFromColumns([c]))).toThrow(/varies/);
  });
});
