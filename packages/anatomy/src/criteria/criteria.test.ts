import { describe, expect, it } from 'vitest';
import { generatePopulation } from '../population/generate';
import type { SyntheticPatient } from '../population/types';
import { createDefaultCriteria } from './defaults';
import {
  AGE_GROUP_OPTIONS,
  BODY_DIMENSION_RANGES,
  COHORT_SIZES,
  CRITERIA_KEYS,
  ORIGIN_ETHNICITY_OPTIONS,
} from './enumerations';
import { compileCriteria, countMatches, matchPatients } from './match';
import { InsufficientMatchesError, allocateProportionally, drawStratifiedSample, stratumOf } from './sample';
import {
  cyclePathology,
  requestNewPathology,
  removeNewPathology,
  setBodyDimensionRange,
  setOriginMode,
  toggleAgeGroup,
  toggleOrigin,
  togglePhase,
  toggleSex,
} from './toggle';
import type { CohortCriteria } from './types';
import { CriteriaError, normalizeCriteria, validateCriteria } from './validate';
import { summarizeCriteria } from './summary';

const patients = generatePopulation({ seed: 11, count: 2000 }).patients;
const base = createDefaultCriteria();
const ids = (xs: readonly SyntheticPatient[]): string[] => xs.map((p) => p.id);

describe('enumerations and defaults', () => {
  it('follow spec §3 and §9', () => {
    expect(CRITERIA_KEYS).toEqual([
      'pathology',
      'sex',
      'body_dimensions',
      'origin',
      'age_group',
      'phases_of_heart_cycle',
    ]);
    expect(COHORT_SIZES).toEqual([5, 10, 20, 50, 100]);
    expect(BODY_DIMENSION_RANGES.height).toMatchObject({ min: 0, max: 215, step: 5 });
    expect(BODY_DIMENSION_RANGES.weight).toMatchObject({ min: 0, max: 180, step: 5 });
    expect(BODY_DIMENSION_RANGES.bmi).toMatchObject({ min: 10, max: 40, step: 0.5 });
    expect(BODY_DIMENSION_RANGES.bsa).toMatchObject({ min: 0, max: 3.5, step: 0.1 });
    expect(AGE_GROUP_OPTIONS.find((o) => o.key === 'pediatric')?.enabled).toBe(false);
    expect(ORIGIN_ETHNICITY_OPTIONS.filter((o) => o.enabled).map((o) => o.key)).toEqual(['asian', 'white']);
    expect(base.body_part).toBe('heart_and_thorax');
    expect(validateCriteria(base)).toEqual([]);
  });

  it('default criteria match everybody', () => {
    expect(countMatches(patients, base)).toBe(patients.length);
  });
});

describe('pathology: tri-state', () => {
  it('cycles select → exclude → deselect', () => {
    const once = cyclePathology(base, 'heart_failure');
    expect(once.pathology.heart_failure).toBe('selected');
    const twice = cyclePathology(once, 'heart_failure');
    expect(twice.pathology.heart_failure).toBe('excluded');
    const thrice = cyclePathology(twice, 'heart_failure');
    expect(thrice.pathology.heart_failure).toBeUndefined();
    expect(cyclePathology(base, 'not_a_pathology')).toBe(base);
  });

  it('selected = must have, excluded = must not have, several selected = all of them', () => {
    const selected = cyclePathology(base, 'heart_failure');
    expect(matchPatients(patients, selected).every((p) => p.pathologies.includes('heart_failure'))).toBe(true);
    const excluded = cyclePathology(selected, 'heart_failure');
    const without = matchPatients(patients, excluded);
    expect(without.some((p) => p.pathologies.includes('heart_failure'))).toBe(false);
    expect(countMatches(patients, selected) + without.length).toBe(patients.length);
    const both = cyclePathology(selected, 'mitral_valve_insufficiency');
    const expected = patients.filter(
      (p) => p.pathologies.includes('heart_failure') && p.pathologies.includes('mitral_valve_insufficiency'),
    );
    expect(ids(matchPatients(patients, both))).toEqual(ids(expected));
    expect(expected.length).toBeGreaterThan(0);
  });

  it('healthy patients: every pathology excluded', () => {
    let healthy = base;
    for (const key of [
      'mitral_valve_insufficiency',
      'heart_failure',
      'pulmonary_valve_insufficiency',
      'tricuspid_valve_insufficiency',
      'aortic_valve_insufficiency_stenosis',
    ])
      healthy = cyclePathology(cyclePathology(healthy, key), key);
    expect(ids(matchPatients(patients, healthy))).toEqual(ids(patients.filter((p) => p.pathologies.length === 0)));
  });

  it('new pathologies are requests: recorded, validated, never filtering', () => {
    const requested = requestNewPathology(base, '  Hypertrophic   cardiomyopathy ');
    expect(requested.pathology['Hypertrophic cardiomyopathy']).toBe('new');
    expect(validateCriteria(requested)).toEqual([]);
    expect(countMatches(patients, requested)).toBe(patients.length);
    expect(requestNewPathology(base, 'heart failure')).toBe(base);
    expect(requestNewPathology(base, '   ')).toBe(base);
    expect(removeNewPathology(requested, 'Hypertrophic cardiomyopathy').pathology).toEqual({});
    const bad: CohortCriteria = { ...base, pathology: { heart_failure: 'new', unknown_thing: 'selected' } };
    expect(validateCriteria(bad).map((i) => i.code)).toEqual(['invalid_status', 'unknown_option']);
  });
});

describe('other options: select / deselect', () => {
  it('sex, age group and origin are OR within a criterion', () => {
    const women = toggleSex(base, 'female');
    expect(matchPatients(patients, women).every((p) => p.sex === 'female')).toBe(true);
    expect(countMatches(patients, toggleSex(women, 'male'))).toBe(patients.length);
    expect(toggleSex(women, 'female').sex).toEqual({});

    const adult = toggleAgeGroup(base, 'adult');
    const geriatric = toggleAgeGroup(base, 'geriatric');
    expect(matchPatients(patients, adult).every((p) => p.age_years >= 18 && p.age_years <= 75)).toBe(true);
    expect(matchPatients(patients, geriatric).every((p) => p.age_years >= 65)).toBe(true);
    const overlap = matchPatients(patients, adult).filter((p) => p.age_years >= 65);
    expect(overlap.length).toBeGreaterThan(0);
    expect(overlap.every((p) => compileCriteria(geriatric)(p))).toBe(true);
    expect(countMatches(patients, toggleAgeGroup(adult, 'geriatric'))).toBe(patients.length);
  });

  it('disabled options cannot be chosen and are rejected when sent', () => {
    expect(toggleAgeGroup(base, 'pediatric')).toBe(base);
    expect(toggleOrigin(base, 'location', 'middle_east_africa')).toBe(base);
    expect(toggleOrigin(base, 'ethnicity', 'hispanic')).toBe(base);
    expect(toggleSex(base, 'other')).toBe(base);
    const sent: CohortCriteria = { ...base, age_group: { pediatric: 'selected' } };
    expect(validateCriteria(sent).map((i) => i.code)).toEqual(['disabled_option']);
    expect(() => compileCriteria(sent)).toThrow(CriteriaError);
    const disabledBody: CohortCriteria = { ...base, body_part: 'dental' };
    expect(validateCriteria(disabledBody).map((i) => i.code)).toEqual(['disabled_option']);
    const excludedSex: CohortCriteria = { ...base, sex: { female: 'excluded' } };
    expect(validateCriteria(excludedSex).map((i) => i.code)).toEqual(['invalid_status']);
  });

  it('origin filters by location or by ethnicity, never both', () => {
    const europe = toggleOrigin(base, 'location', 'europe');
    expect(matchPatients(patients, europe).every((p) => p.originLocation === 'europe')).toBe(true);
    const asian = toggleOrigin(europe, 'ethnicity', 'asian');
    expect(asian.origin).toEqual({ by: 'ethnicity', location: {}, ethnicity: { asian: 'selected' } });
    const asians = matchPatients(patients, asian);
    expect(asians.every((p) => p.originEthnicity === 'asian')).toBe(true);
    expect(new Set(asians.map((p) => p.originLocation)).size).toBeGreaterThan(1);
    expect(setOriginMode(asian, 'location').origin).toEqual({ by: 'location', location: {}, ethnicity: {} });
    // A stale map of the inactive mode is ignored.
    const stale: CohortCriteria = {
      ...base,
      origin: { by: 'location', location: {}, ethnicity: { asian: 'selected' } },
    };
    expect(countMatches(patients, stale)).toBe(patients.length);
  });
});

describe('phases of the heart cycle', () => {
  it('cine_ct selects both static phases; dropping one drops cine_ct', () => {
    const cine = togglePhase(base, 'cine_ct');
    expect(cine.phases_of_heart_cycle).toEqual({
      cine_ct: 'selected',
      'end-systole': 'selected',
      'end-diastole': 'selected',
    });
    expect(togglePhase(cine, 'end-systole').phases_of_heart_cycle).toEqual({ 'end-diastole': 'selected' });
    expect(togglePhase(cine, 'cine_ct').phases_of_heart_cycle).toEqual({
      'end-systole': 'selected',
      'end-diastole': 'selected',
    });
  });

  it('requires every selected phase; cine_ct sent alone is normalised', () => {
    const es = togglePhase(base, 'end-systole');
    expect(matchPatients(patients, es).every((p) => p.phases.includes('end-systole'))).toBe(true);
    const sentAlone: CohortCriteria = { ...base, phases_of_heart_cycle: { cine_ct: 'selected' } };
    expect(validateCriteria(sentAlone).map((i) => i.code)).toEqual(['implied_phase_missing', 'implied_phase_missing']);
    expect(validateCriteria(normalizeCriteria(sentAlone))).toEqual([]);
    const cine = matchPatients(patients, sentAlone);
    expect(cine.length).toBeGreaterThan(0);
    expect(
      cine.every(
        (p) => p.phases.includes('cine_ct') && p.phases.includes('end-systole') && p.phases.includes('end-diastole'),
      ),
    ).toBe(true);
    const both = togglePhase(es, 'end-diastole');
    expect(countMatches(patients, both)).toBeGreaterThan(cine.length);
  });
});

describe('body-dimension ranges', () => {
  it('filters inclusively on min/max, open at the ends of the slider', () => {
    const tall = setBodyDimensionRange(base, 'height', { min: 180, max: 215 });
    expect(matchPatients(patients, tall).every((p) => p.body.height_cm >= 180)).toBe(true);
    const obese = setBodyDimensionRange(base, 'bmi', { min: 35, max: 40 });
    const matched = matchPatients(patients, obese);
    expect(matched.some((p) => p.body.bmi_kg_m2 > 40)).toBe(true);
    expect(matched.every((p) => p.body.bmi_kg_m2 >= 35)).toBe(true);
    const band = setBodyDimensionRange(base, 'bsa', { min: 1.7, max: 1.9 });
    expect(ids(matchPatients(patients, band))).toEqual(
      ids(patients.filter((p) => p.body.bsaDuBois_m2 >= 1.7 && p.body.bsaDuBois_m2 <= 1.9)),
    );
    const weight = setBodyDimensionRange(base, 'weight', { min: 60, max: 80 });
    expect(matchPatients(patients, weight).every((p) => p.body.weight_kg >= 60 && p.body.weight_kg <= 80)).toBe(true);
  });

  it('snaps to the step, clamps to the domain and orders min/max', () => {
    expect(setBodyDimensionRange(base, 'bsa', { min: 1.73, max: 9 }).body_dimensions.bsa).toEqual({
      min: 1.7,
      max: 3.5,
    });
    expect(setBodyDimensionRange(base, 'bmi', { min: 30.3, max: 20.2 }).body_dimensions.bmi).toEqual({
      min: 20,
      max: 30.5,
    });
    expect(setBodyDimensionRange(base, 'height', { min: -20, max: 172 }).body_dimensions.height).toEqual({
      min: 0,
      max: 170,
    });
    const offStep: CohortCriteria = {
      ...base,
      body_dimensions: { ...base.body_dimensions, height: { min: 172, max: 200 } },
    };
    expect(validateCriteria(offStep).map((i) => i.code)).toEqual(['range_off_step']);
    const inverted: CohortCriteria = {
      ...base,
      body_dimensions: { ...base.body_dimensions, bmi: { min: 30, max: 20 } },
    };
    expect(validateCriteria(inverted).map((i) => i.code)).toEqual(['range_inverted']);
    const outside: CohortCriteria = {
      ...base,
      body_dimensions: { ...base.body_dimensions, weight: { min: 0, max: 200 } },
    };
    expect(validateCriteria(outside).map((i) => i.code)).toEqual(['range_out_of_domain']);
  });

  it('combines criteria with AND', () => {
    let c = toggleSex(base, 'female');
    c = toggleOrigin(c, 'ethnicity', 'asian');
    c = setBodyDimensionRange(c, 'height', { min: 150, max: 165 });
    c = cyclePathology(cyclePathology(c, 'heart_failure'), 'heart_failure');
    const expected = patients.filter(
      (p) =>
        p.sex === 'female' &&
        p.originEthnicity === 'asian' &&
        p.body.height_cm >= 150 &&
        p.body.height_cm <= 165 &&
        !p.pathologies.includes('heart_failure'),
    );
    expect(ids(matchPatients(patients, c))).toEqual(ids(expected));
  });
});

describe('stratified sample', () => {
  const matches = matchPatients(patients, toggleSex(base, 'female'));

  it('is reproducible for a seed, independent of input order, sorted by id', () => {
    const a = drawStratifiedSample(matches, 50, 'cohort-42');
    const b = drawStratifiedSample([...matches].reverse(), 50, 'cohort-42');
    expect(ids(a)).toEqual(ids(b));
    expect(a).toHaveLength(50);
    expect(new Set(ids(a)).size).toBe(50);
    expect(ids(a)).toEqual([...ids(a)].sort());
    expect(ids(drawStratifiedSample(matches, 50, 'cohort-43'))).not.toEqual(ids(a));
    expect(a.every((p) => matches.includes(p))).toBe(true);
  });

  it('allocates proportionally to the strata (largest remainders)', () => {
    const sample = drawStratifiedSample(matches, 100, 1);
    const population = new Map<string, number>();
    for (const p of matches) population.set(stratumOf(p), (population.get(stratumOf(p)) ?? 0) + 1);
    const drawn = new Map<string, number>();
    for (const p of sample) drawn.set(stratumOf(p), (drawn.get(stratumOf(p)) ?? 0) + 1);
    for (const [key, n] of population) {
      const quota = (100 * n) / matches.length;
      const got = drawn.get(key) ?? 0;
      expect(got === Math.floor(quota) || got === Math.ceil(quota)).toBe(true);
    }
    expect(
      allocateProportionally(
        new Map([
          ['a', 1],
          ['b', 1],
          ['c', 1],
        ]),
        2,
      ),
    ).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
        ['c', 0],
      ]),
    );
  });

  it('takes everybody when the size equals the matches and refuses when too few match', () => {
    const few = matches.slice(0, 20);
    expect(ids(drawStratifiedSample(few, 20, 3))).toEqual(ids(few).sort());
    expect(() => drawStratifiedSample(few, 50, 3)).toThrow(InsufficientMatchesError);
    try {
      drawStratifiedSample(few, 50, 3);
    } catch (error) {
      expect(error).toBeInstanceOf(InsufficientMatchesError);
      expect((error as InsufficientMatchesError).matching).toBe(20);
      expect((error as InsufficientMatchesError).message).toBe(
        'Only 20 patients match these criteria; 50 were requested.',
      );
    }
    expect(() => drawStratifiedSample(few, 0, 3)).toThrow(RangeError);
  });
});

describe('criteria summary', () => {
  it('describes only what filters, in spec order', () => {
    expect(summarizeCriteria(base)).toBe('Heart and thorax · all patients');
    let c = cyclePathology(base, 'heart_failure');
    c = cyclePathology(cyclePathology(c, 'mitral_valve_insufficiency'), 'mitral_valve_insufficiency');
    c = requestNewPathology(c, 'Endocarditis');
    c = toggleSex(c, 'female');
    c = setBodyDimensionRange(c, 'bmi', { min: 25, max: 40 });
    c = setBodyDimensionRange(c, 'height', { min: 150, max: 180 });
    c = toggleOrigin(c, 'ethnicity', 'asian');
    c = toggleAgeGroup(c, 'geriatric');
    c = togglePhase(c, 'cine_ct');
    expect(summarizeCriteria(c)).toBe(
      'Heart and thorax · with Heart failure; without Mitral valve insufficiency; requested: Endocarditis · Female · ' +
        'Height 150–180 cm, BMI ≥ 25 kg/m² · Asian · Geriatric (65+) · End-systole, End-diastole, Cine CT',
    );
  });
});
