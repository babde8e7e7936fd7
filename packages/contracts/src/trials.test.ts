import { describe, expect, it } from 'vitest';
import { criterionText, meetsCriterion, updateTrialSchema } from './trials';

describe('trial acceptance criteria', () => {
  it('judges values inside the bounds inclusively, open bounds unlimited, missing values not at all', () => {
    expect(meetsCriterion(20, { min: null, max: 20 })).toBe(true);
    expect(meetsCriterion(20.001, { min: null, max: 20 })).toBe(false);
    expect(meetsCriterion(1.2, { min: 1.2, max: 3 })).toBe(true);
    expect(meetsCriterion(1.19, { min: 1.2, max: null })).toBe(false);
    expect(meetsCriterion(null, { min: 0, max: 1 })).toBeNull();
    expect(meetsCriterion(Number.NaN, { min: 0, max: 1 })).toBeNull();
    expect(meetsCriterion(0.5, undefined)).toBeNull();
  });

  it('writes a criterion as people do', () => {
    expect(criterionText({ min: null, max: 20 }, 'mmHg')).toBe('≤ 20 mmHg');
    expect(criterionText({ min: 1.2, max: null }, 'cm²')).toBe('≥ 1.2 cm²');
    expect(criterionText({ min: 1.2, max: 3 }, '')).toBe('1.2–3');
  });

  it('refuses reversed, empty and non-numeric bounds, and an empty change', () => {
    const issues = (body: unknown) => updateTrialSchema.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ acceptance: { a: { min: 5, max: 1 } } })).toEqual([
      'The lower bound must not exceed the upper one.',
    ]);
    expect(issues({ acceptance: { a: { min: null, max: null } } })).toEqual([
      'Give an acceptance criterion a lower or an upper bound.',
    ]);
    expect(issues({ acceptance: { a: { min: Number.POSITIVE_INFINITY, max: null } } })).toEqual([
      'An acceptance bound must be a number.',
    ]);
    expect(issues({})).toEqual(['Send the acceptance criteria or autoRerun.']);
    expect(issues({ autoRerun: false })).toEqual([]);
  });
});
