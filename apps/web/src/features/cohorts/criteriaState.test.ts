import { createDefaultCriteria, requestNewPathology, setBodyDimensionRange } from '@insilico/anatomy';
import { describe, expect, it } from 'vitest';
import {
  clickOption,
  formatRange,
  isDefaultCriteria,
  optionStatus,
  optionStateLabel,
  orderableSizes,
  parseSavedCriteria,
  requestedPathologies,
} from './criteriaState';

describe('criteria state of the order page', () => {
  it('cycles a pathology select → exclude → deselect', () => {
    let criteria = createDefaultCriteria();
    const seen: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      criteria = clickOption(criteria, 'pathology', 'heart_failure');
      seen.push(optionStatus(criteria, 'pathology', 'heart_failure'));
    }
    expect(seen).toEqual(['selected', 'excluded', 'default', 'selected']);
  });

  it('selects and deselects the other options', () => {
    const once = clickOption(createDefaultCriteria(), 'sex', 'female');
    expect(optionStatus(once, 'sex', 'female')).toBe('selected');
    expect(optionStatus(clickOption(once, 'sex', 'female'), 'sex', 'female')).toBe('default');
    const adult = clickOption(createDefaultCriteria(), 'age_group', 'adult');
    expect(optionStatus(adult, 'age_group', 'adult')).toBe('selected');
  });

  it('selects end-systole and end-diastole with cine_ct, and drops cine when one of them is deselected', () => {
    const cine = clickOption(createDefaultCriteria(), 'phases', 'cine_ct');
    expect(['cine_ct', 'end-systole', 'end-diastole'].map((key) => optionStatus(cine, 'phases', key))).toEqual([
      'selected',
      'selected',
      'selected',
    ]);
    const withoutSystole = clickOption(cine, 'phases', 'end-systole');
    expect(optionStatus(withoutSystole, 'phases', 'cine_ct')).toBe('default');
    expect(optionStatus(withoutSystole, 'phases', 'end-diastole')).toBe('selected');
  });

  it('never chooses a disabled option', () => {
    const criteria = createDefaultCriteria();
    expect(clickOption(criteria, 'age_group', 'pediatric')).toBe(criteria);
    expect(clickOption(criteria, 'origin.ethnicity', 'hispanic')).toBe(criteria);
    expect(clickOption(criteria, 'origin.location', 'middle_east_africa')).toBe(criteria);
    expect(optionStateLabel('Pediatric (0–17)', 'default', false)).toBe('Pediatric (0–17) (not available)');
  });

  it('filters origin by one mode at a time', () => {
    const europe = clickOption(createDefaultCriteria(), 'origin.location', 'europe');
    const asian = clickOption(europe, 'origin.ethnicity', 'asian');
    expect(asian.origin.by).toBe('ethnicity');
    expect(optionStatus(asian, 'origin.location', 'europe')).toBe('default');
    expect(optionStatus(asian, 'origin.ethnicity', 'asian')).toBe('selected');
  });

  it('lists requested pathologies and knows a draft that was not touched', () => {
    const criteria = requestNewPathology(createDefaultCriteria(), 'Marfan syndrome');
    expect(requestedPathologies(criteria)).toEqual(['Marfan syndrome']);
    expect(isDefaultCriteria(createDefaultCriteria())).toBe(true);
    expect(isDefaultCriteria(criteria)).toBe(false);
  });

  it('offers only sizes that enough patients match', () => {
    expect(
      orderableSizes(30)
        .filter((entry) => entry.enabled)
        .map((entry) => entry.size),
    ).toEqual([5, 10, 20]);
    expect(orderableSizes(null).every((entry) => entry.enabled)).toBe(true);
  });

  it('formats ranges open at the slider ends', () => {
    expect(formatRange('height', 0, 215)).toBe('any');
    expect(formatRange('bmi', 10, 30)).toBe('≤ 30 kg/m²');
    expect(formatRange('bsa', 1.8, 3.5)).toBe('≥ 1.8 m²');
    expect(formatRange('weight', 60, 90)).toBe('60–90 kg');
  });

  it('restores a saved draft and replaces an invalid one with a new draft', () => {
    const saved = setBodyDimensionRange(createDefaultCriteria(), 'height', { min: 150, max: 190 });
    expect(parseSavedCriteria(JSON.stringify(saved))).toEqual(saved);
    expect(parseSavedCriteria('{"sex":')).toEqual(createDefaultCriteria());
    const tampered = { ...createDefaultCriteria(), age_group: { pediatric: 'selected' } };
    expect(parseSavedCriteria(JSON.stringify(tampered))).toEqual(createDefaultCriteria());
    expect(parseSavedCriteria(null)).toEqual(createDefaultCriteria());
  });
});
