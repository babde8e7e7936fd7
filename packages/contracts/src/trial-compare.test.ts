import { describe, expect, it } from 'vitest';
import { comparableOutcomes, compareOutcome, outcomeValues, verdictChanges } from './trial-compare';
import type { TrialDetail } from './trials';

const trial = (values: Record<string, number | null>): Pick<TrialDetail, 'patients'> => ({
  patients: Object.entries(values).map(([patientId, value]) => ({
    patientId,
    instance: null,
    status: 'done',
    error: null,
    stage: null,
    placement: null,
    roomId: null,
    simulationId: null,
    simulationStatus: null,
    progress: 1,
    etaSeconds: null,
    outcomes: value === null ? null : { pressure_drop: value },
    outcomeNotes: {},
    outcomeVersions: {},
    earlierOutcomes: [],
  })),
});

describe('compareOutcome', () => {
  it('pairs patients by id, differences where both have a value, and their mean', () => {
    const result = compareOutcome(
      trial({ 'SYN-1': 10, 'SYN-2': 12, 'SYN-3': null }),
      trial({ 'SYN-2': 9, 'SYN-1': 14, 'SYN-3': 7 }),
      'pressure_drop',
    );
    expect(result.patients).toEqual([
      { patientId: 'SYN-2', base: 12, current: 9, difference: -3 },
      { patientId: 'SYN-1', base: 10, current: 14, difference: 4 },
      { patientId: 'SYN-3', base: null, current: 7, difference: null },
    ]);
    expect(result.meanDifference).toBe(0.5);
    expect(result.paired).toBe(2);
  });

  it('has no mean without a pair', () => {
    expect(compareOutcome(trial({ 'SYN-1': null }), trial({ 'SYN-1': 3 }), 'pressure_drop').meanDifference).toBeNull();
  });
});

describe('verdict changes under an acceptance criterion', () => {
  const before = trial({ A: 18, B: 25, C: 19, D: null, E: 10, F: 20 });
  const after = trial({ A: 22, B: 15, C: 19.5, D: 30, E: 21, F: 20 });

  it('lists pass → fail first, then fail → pass, and leaves patients without both values or unchanged', () => {
    expect(verdictChanges(before, after, 'pressure_drop', { min: null, max: 20 })).toEqual([
      { patientId: 'A', base: 18, current: 22, change: 'pass → fail' },
      { patientId: 'E', base: 10, current: 21, change: 'pass → fail' },
      { patientId: 'B', base: 25, current: 15, change: 'fail → pass' },
    ]);
  });

  it('judges the bounds inclusively and nothing without a criterion', () => {
    // C stays at the bound (19 → 19.5 passes both times), F equals it on both versions.
    expect(verdictChanges(before, after, 'pressure_drop', { min: 19, max: null })).toEqual([
      { patientId: 'B', base: 25, current: 15, change: 'pass → fail' },
      { patientId: 'A', base: 18, current: 22, change: 'fail → pass' },
      { patientId: 'E', base: 10, current: 21, change: 'fail → pass' },
    ]);
    expect(verdictChanges(before, after, 'pressure_drop', { min: 20, max: 20 })).toEqual([]);
    expect(verdictChanges(before, after, 'pressure_drop', undefined)).toEqual([]);
  });

  it('gives the finite values of an outcome for the distribution plot', () => {
    expect(outcomeValues(before, 'pressure_drop')).toEqual([18, 25, 19, 10, 20]);
  });
});

describe('comparableOutcomes', () => {
  const speed = { source: 'object', label: 'Speed', field: 'velocity', particles: 'max', over: 'max' } as const;
  const outcome = (key: string, label: string) => ({ key, label, unit: 'm/s', description: '' });
  const trialWith = (custom: { key: string; definition: typeof speed | { [k: string]: unknown } }[]) =>
    ({
      outcomes: [
        outcome('peak_velocity', 'Peak velocity'),
        ...custom.map((c) => outcome(c.key, String(c.definition.label))),
      ],
      customOutcomes: custom.map((c) => ({ ...c, version: 1 })),
    }) as unknown as Pick<TrialDetail, 'outcomes' | 'customOutcomes'>;

  it('keeps the kind’s outcomes and the user’s computed the same way under one key, names the others', () => {
    const base = trialWith([
      { key: 'user_1', definition: speed },
      { key: 'user_2', definition: { ...speed, label: 'Mean speed', over: 'mean' } },
    ]);
    const current = trialWith([
      { key: 'user_1', definition: { ...speed, label: 'Speed, renamed' } },
      { key: 'user_2', definition: { ...speed, label: 'Mean speed', over: 'last' } },
      { key: 'user_3', definition: { ...speed, label: 'New' } },
    ]);
    const result = comparableOutcomes(base, current);
    expect(result.outcomes.map((o) => o.key)).toEqual(['peak_velocity', 'user_1']);
    expect(result.differing).toEqual(['Mean speed', 'New']);
  });
});
