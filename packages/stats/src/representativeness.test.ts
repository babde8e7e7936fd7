import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matrixFromRows } from './matrix';
import {
  covarianceOf,
  energyTest,
  kolmogorovSurvival,
  ksExactOutside,
  ksTwoSample,
  mahalanobisQq,
  rangeCovered,
} from './representativeness';
import { expectClose } from '../test/reference';

/** tools/stats-reference/representativeness.py (numpy/scipy; versions in the file). */
interface Fixture {
  ks: { a: number[]; b: number[]; statistic: number; exact: number; limit: number }[];
  kolmogorov: { lambda: number; sf: number }[];
  energy: {
    x: number[][];
    y: number[][];
    same: number[][];
    permutations: number;
    seed: number;
    shifted: { energy: number; statistic: number; p: number };
    null: { energy: number; statistic: number; p: number };
    oneD: { u: number[]; v: number[]; energy: number; scipy: number };
  };
  mahalanobis: {
    cohort: number[][];
    mean: number[];
    covariance: number[];
    distances: number[];
    expected: number[];
    beyond95: number;
  };
}
const fixture = JSON.parse(
  readFileSync(new URL('../test/fixtures/representativeness.json', import.meta.url), 'utf8'),
) as Fixture;

describe('two-sample Kolmogorov–Smirnov', () => {
  it('matches scipy ks_2samp: the statistic to 1e-12, the exact p-value to 1e-9 relative', () => {
    for (const [k, c] of fixture.ks.entries()) {
      const test = ksTwoSample(c.a, c.b);
      expect(test.method).toBe('exact');
      expectClose(test.statistic, c.statistic, 1e-12, `case ${k} D`);
      expectClose(test.pValue, c.exact, 1e-9, `case ${k} p`);
    }
  });

  it('matches Kolmogorov’s limit law (scipy kstwobign.sf) to 1e-10 on both sides of λ = 1', () => {
    for (const { lambda, sf } of fixture.kolmogorov) expectClose(kolmogorovSurvival(lambda), sf, 1e-10, `λ ${lambda}`);
    for (const c of fixture.ks) {
      const en = (c.a.length * c.b.length) / (c.a.length + c.b.length);
      expectClose(kolmogorovSurvival(Math.sqrt(en) * c.statistic), c.limit, 1e-10, 'limit');
    }
  });

  it('counts paths by hand for tiny samples: m = n = 2, D = 1 happens on 2 of 6 orderings', () => {
    expectClose(ksExactOutside(2, 2, 1), 2 / 6, 1e-15, 'D = 1');
    expect(ksExactOutside(2, 2, 0)).toBe(1);
    expect(ksTwoSample([1, 2], [3, 4]).statistic).toBe(1);
    // Ties: both functions are evaluated after every tied value, as scipy does.
    expect(ksTwoSample([1, 1, 2], [1, 2, 2]).statistic).toBeCloseTo(1 / 3, 15);
  });
});

describe('range covered', () => {
  it('gives the share of the reference’s range and of its patients inside the cohort’s range', () => {
    const covered = rangeCovered([2, 5, 8], [0, 4, 6, 10]);
    expect(covered).toEqual({
      rangeFraction: 0.6,
      patientFraction: 0.5,
      cohort: { min: 2, max: 8 },
      reference: { min: 0, max: 10 },
    });
    expect(rangeCovered([20, 30], [0, 10]).rangeFraction).toBe(0);
  });
});

describe('energy distance', () => {
  const e = fixture.energy;
  it('matches numpy/cdist for E and T to 1e-12, and the permutation p-value replayed in Python exactly', () => {
    for (const [name, other, expected] of [
      ['shifted', e.y, e.shifted],
      ['null', e.same, e.null],
    ] as const) {
      const test = energyTest(matrixFromRows(e.x), matrixFromRows(other), {
        permutations: e.permutations,
        seed: e.seed,
      });
      expectClose(test.energy, expected.energy, 1e-12, `${name} E`);
      expectClose(test.statistic, expected.statistic, 1e-12, `${name} T`);
      expect(test.pValue, name).toBe(expected.p);
    }
  });

  it('is scipy.stats.energy_distance squared in one dimension (to 1e-12)', () => {
    const column = (values: number[]) => matrixFromRows(values.map((v) => [v]));
    const test = energyTest(column(e.oneD.u), column(e.oneD.v), { permutations: 0 });
    expectClose(test.energy, e.oneD.scipy, 1e-12, 'scipy');
    expectClose(test.energy, e.oneD.energy, 1e-12, 'numpy');
    expect(test.pValue).toBe(1);
  });
});

describe('Mahalanobis QQ', () => {
  it('matches scipy’s mahalanobis² and chi2.ppf (1e-10 relative), and the share beyond the 95 % quantile', () => {
    const m = fixture.mahalanobis;
    const qq = mahalanobisQq(matrixFromRows(m.cohort), m.mean, Float64Array.from(m.covariance));
    expect(qq.degreesOfFreedom).toBe(3);
    m.distances.forEach((d, i) => expectClose(qq.distances[i], d, 1e-10, `D² ${i}`));
    m.expected.forEach((q, i) => expectClose(qq.expected[i], q, 1e-10, `χ² ${i}`));
    expect(qq.beyond95).toBe(m.beyond95);
  });

  it('builds the covariance from published SDs and correlations', () => {
    expect([
      ...covarianceOf(
        [2, 3],
        [
          [1, 0.5],
          [0.5, 1],
        ],
      ),
    ]).toEqual([4, 3, 3, 9]);
  });
});
