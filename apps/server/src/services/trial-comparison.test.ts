import { describe, expect, it } from 'vitest';
import type { TrialPatientWithRun, TrialRow } from '../repositories/trial.repository';
import { compareTrials, trialComparison } from './trial-comparison';

/**
 * Device CI's comparison kept with a re-run's results (the design history's evidence): figures worked out by hand on
 * three patients, a criterion "pressure drop ≤ 20 mmHg" far from every value (10 → 30 fails, 25 → 15 passes).
 */
const trial = (over: Partial<TrialRow>): TrialRow =>
  ({
    id: 't1',
    name: 'Valve v1 trial',
    kind: 'fluid',
    deviceVersionId: 'v1',
    deviceVersionName: 'Valve v1',
    customOutcomes: [],
    acceptance: {},
    ...over,
  }) as unknown as TrialRow;

const patients = (values: Record<string, number | null>): TrialPatientWithRun[] =>
  Object.entries(values).map(([patientId, value], patientIndex) => ({
    patient: {
      patientId,
      patientIndex,
      outcomes: value === null ? null : { pressure_drop: value, peak_velocity: 1 + patientIndex },
      outcomeNotes: {},
      outcomeVersions: {},
    } as unknown as TrialPatientWithRun['patient'],
    run: null,
  }));

const custom = (particles: 'max' | 'mean') => ({
  key: 'user_1',
  version: 1,
  definition: { source: 'object', label: 'Mine', field: 'speed', particles, over: 'max' },
});

describe('trialComparison', () => {
  const base = { trial: trial({}), patients: patients({ 'SYN-1': 10, 'SYN-2': 25, 'SYN-3': null }) };
  const current = {
    trial: trial({
      id: 't2',
      name: 'Valve v2 trial',
      deviceVersionId: 'v2',
      deviceVersionName: 'Valve v2',
      acceptance: { pressure_drop: { min: null, max: 20 } },
    }),
    patients: patients({ 'SYN-1': 30, 'SYN-2': 15, 'SYN-3': 12 }),
  };

  it('names the earlier trial and gives per outcome the paired patients, the mean difference and verdict changes', () => {
    const comparison = trialComparison(base, current);
    expect(comparison.basedOn).toEqual({
      trialId: 't1',
      name: 'Valve v1 trial',
      deviceVersionId: 'v1',
      deviceVersionName: 'Valve v1',
    });
    const [drop, velocity] = comparison.outcomes as Record<string, unknown>[];
    // SYN-3 has no value on v1: two pairs, (30 − 10 + 15 − 25) / 2 = 5.
    expect(drop).toEqual({
      key: 'pressure_drop',
      label: 'Pressure drop',
      unit: 'mmHg',
      paired: 2,
      meanDifference: 5,
      criterion: { min: null, max: 20 },
      passToFail: ['SYN-1'],
      failToPass: ['SYN-2'],
    });
    // No criterion: differences only (the same 1 + index on both versions).
    expect(velocity).toMatchObject({
      key: 'peak_velocity',
      paired: 2,
      meanDifference: 0,
      criterion: null,
      passToFail: [],
      failToPass: [],
    });
    expect(comparison.leftOut).toEqual([]);
  });

  it('gives the report each patient’s two values and difference (the evidence kept leaves them out)', () => {
    const [drop] = compareTrials(base, current).outcomes;
    expect(drop!.patients).toEqual([
      { patientId: 'SYN-1', base: 10, current: 30, difference: 20 },
      { patientId: 'SYN-2', base: 25, current: 15, difference: -10 },
      { patientId: 'SYN-3', base: null, current: 12, difference: null },
    ]);
    expect(drop).toMatchObject({ paired: 2, meanDifference: 5, passToFail: ['SYN-1'], failToPass: ['SYN-2'] });
  });

  it('leaves out an outcome of the user’s own computed another way, by its label', () => {
    const comparison = trialComparison(
      { ...base, trial: trial({ customOutcomes: [custom('max')] }) },
      { ...current, trial: { ...current.trial, customOutcomes: [custom('mean')] } },
    );
    expect(comparison.leftOut).toEqual(['Mine']);
    expect((comparison.outcomes as { key: string }[]).map((o) => o.key)).not.toContain('user_1');
  });
});
