/**
 * The aortic root of the current model against the published figures (issue 23), per sex and in the age groups
 * the sources describe: at TAVI ages (≥ 75 y) the TAVI CT series of Hamdan et al. 2017 (means ± 3 %, SDs ± 10 %)
 * and the root correlations of issue 4 (± 0.05); in adults 18–50 y the spread of the sinus around Devereux's
 * regression (its SEE, ± 10 %). The expectations are the published numbers (model/aorticRootSources.ts).
 *
 * 40,000 patients (seed 23, not the seed the constants were tuned on) give ≈ 5,400 women and ≈ 5,500 men aged
 * ≥ 75 and ≈ 7,600 of each sex aged 18–50. Standard errors, well inside the tolerances: mean of the sinus
 * 4.2/√5,400 = 0.06 mm (0.2 %); an SD ≈ SD/√(2n) ≈ 1.0 %; a correlation ≈ (1 − r²)/√n ≤ 0.005 (r = 0.80); the
 * SEE ≈ 0.8 %.
 */
import { describe, expect, it } from 'vitest';
import {
  DEVEREUX_2012_SINUS_SEE_MM,
  DEVEREUX_AGE_RANGE_YEARS,
  HAMDAN_2017_TAVI_CT,
  ROOT_CORRELATIONS_AT_TAVI_AGES,
  TAVI_AGE_MIN_YEARS,
} from '../model/aorticRootSources';
import { MODEL_VERSION } from '../model/populationModels';
import { generatePopulation } from './generate';
import { rootStatistics, type RootDiameter } from './rootStatistics';

const patients = generatePopulation({ seed: 23, count: 40_000, modelVersion: MODEL_VERSION }).patients;

describe.each(['female', 'male'] as const)(`the aortic root of ${MODEL_VERSION}, %s`, (sex) => {
  const taviAges = patients.filter((p) => p.sex === sex && p.age_years >= TAVI_AGE_MIN_YEARS);
  const stats = rootStatistics(taviAges);

  it(`matches the TAVI CT series at ages ≥ ${TAVI_AGE_MIN_YEARS}: means ± 3 %, SDs ± 10 %`, () => {
    expect(taviAges.length).toBeGreaterThan(5000);
    const failures: string[] = [];
    for (const [key, published] of Object.entries(HAMDAN_2017_TAVI_CT[sex])) {
      const { mean, sd } = stats.moments(key as RootDiameter);
      if (Math.abs(mean / published.mean - 1) > 0.03) failures.push(`${key} mean ${mean} vs ${published.mean}`);
      if (Math.abs(sd / published.sd - 1) > 0.1) failures.push(`${key} SD ${sd} vs ${published.sd}`);
    }
    expect(failures).toEqual([]);
  });

  it(`has the root's correlations of issue 4 at ages ≥ ${TAVI_AGE_MIN_YEARS} (± 0.05)`, () => {
    for (const { a, b, r } of ROOT_CORRELATIONS_AT_TAVI_AGES)
      expect(Math.abs(stats.correlation(a, b) - r), `${a}–${b}`).toBeLessThan(0.05);
  });

  it(`spreads the sinus around age and BSA as Devereux's healthy adults aged ${DEVEREUX_AGE_RANGE_YEARS.min}–${DEVEREUX_AGE_RANGE_YEARS.max} (SEE ± 10 %)`, () => {
    const young = patients.filter(
      (p) =>
        p.sex === sex && p.age_years >= DEVEREUX_AGE_RANGE_YEARS.min && p.age_years <= DEVEREUX_AGE_RANGE_YEARS.max,
    );
    expect(young.length).toBeGreaterThan(7000);
    const see = rootStatistics(young).sinusRegressionSee();
    expect(Math.abs(see / DEVEREUX_2012_SINUS_SEE_MM - 1)).toBeLessThan(0.1);
  });
});
