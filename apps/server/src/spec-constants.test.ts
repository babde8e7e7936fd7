import { AGE_GROUP_OPTIONS, BODY_DIMENSION_RANGES } from '@insilico/anatomy';
import {
  analysisDefaults,
  analysisMinPatients,
  cohortSizes,
  pictureMaxBytes,
  projectTitleMaxLength,
  uploadMaxBytes,
} from '@insilico/contracts';
import { binSizeFloor, maxBinSize, maxBins, minBins } from '@insilico/contracts/binning';
import { ANALYSIS_DEFAULTS, MIN_PATIENTS, RAW_PERCENTILE_MIN_VALUES } from '@insilico/stats';
import { describe, expect, it } from 'vitest';
import { minimumPasswordLength } from './issuer/password-policy';

/**
 * Spec §9 "Business constants and limits" (and the §3 slider grids), number for number, against the constants the
 * server validates with. The rules' boundaries are tested where each rule is applied (see
 * docs/spec-conformance/rules-roles-errors.md); this file catches a constant changed on its own.
 */
describe('spec §9 constants', () => {
  it('password, title, picture, zip', () => {
    expect(minimumPasswordLength).toBe(8);
    expect(projectTitleMaxLength).toBe(50);
    expect(pictureMaxBytes).toBe(5120 * 1024);
    expect(uploadMaxBytes).toBe(1024 ** 3);
  });

  it('cohort sizes and age groups', () => {
    expect([...cohortSizes]).toEqual([5, 10, 20, 50, 100]);
    const ages = Object.fromEntries(
      AGE_GROUP_OPTIONS.map((group) => [group.key, [group.minAge_years, group.maxAge_years, group.enabled]]),
    );
    expect(ages).toEqual({ pediatric: [0, 17, false], adult: [18, 75, true], geriatric: [65, null, true] });
  });

  it('body dimension sliders (spec §3)', () => {
    const grid = Object.fromEntries(
      Object.entries(BODY_DIMENSION_RANGES).map(([key, range]) => [key, [range.min, range.max, range.step]]),
    );
    expect(grid).toEqual({ height: [0, 215, 5], weight: [0, 180, 5], bmi: [10, 40, 0.5], bsa: [0, 3.5, 0.1] });
  });

  it('statistical analysis: 20 patients, raw percentiles from 20 values, both copies alike', () => {
    expect(analysisMinPatients).toBe(20);
    expect(MIN_PATIENTS).toBe(20);
    expect(RAW_PERCENTILE_MIN_VALUES).toBe(20);
    expect(ANALYSIS_DEFAULTS.extremeCases).toBe(5);
  });

  it('analysis defaults: correlation 0.9, alpha 0.001, percentiles 5/50/95, coverage 50, seed 50', () => {
    const spec = {
      correlationThreshold: 0.9,
      alpha: 0.001,
      percentiles: [5, 50, 95],
      targetCoveragePercent: 50,
      seedPercentile: 50,
    };
    // The page and the stored settings use the contracts' copy, the engine its own: both must say the same.
    for (const defaults of [analysisDefaults, ANALYSIS_DEFAULTS])
      expect({
        correlationThreshold: defaults.correlationThreshold,
        alpha: defaults.alpha,
        percentiles: [...defaults.percentiles],
        targetCoveragePercent: defaults.targetCoveragePercent,
        seedPercentile: defaults.seedPercentile,
      }).toEqual(spec);
  });

  it('graph widgets: bins and bin size at most 999, at least one bin, size floor 1e-10', () => {
    expect({ maxBins, minBins, maxBinSize, binSizeFloor }).toEqual({
      maxBins: 999,
      minBins: 1,
      maxBinSize: 999,
      binSizeFloor: 1e-10,
    });
  });
});
