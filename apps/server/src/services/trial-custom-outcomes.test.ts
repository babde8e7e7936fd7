import {
  customOutcomeDefinition,
  customOutcomeProblem,
  customOutcomesSchema,
  type CustomOutcome,
} from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import {
  currentOutcomeValues,
  evaluateCustomOutcomes,
  firstHistory,
  firstVersions,
  planCustomOutcomeChange,
  trialOutcomesOf,
  type CustomOutcomeChange,
  type StepStats,
} from './trial-custom-outcomes';

const stats = (min: number, max: number, mean: number) => ({ min, max, mean });
/** Three saved timesteps of a device: von Mises stress statistics over its particles. */
const steps: StepStats[] = [
  { von_mises_stress: stats(0, 10, 4) },
  { von_mises_stress: stats(1, 30, 12) },
  { von_mises_stress: stats(2, 20, 9), displacement: stats(0, 0.4, 0.1) },
];
const stress = (particles: 'max' | 'min' | 'mean', over: CustomOutcome['over']): CustomOutcome => ({
  source: 'object',
  label: `${particles} ${over}`,
  field: 'von_mises_stress',
  particles,
  over,
});
const monitors = [
  'time (s),upstream flow_rate (L/min),upstream pressure (Pa),upstream pressure (mmHg),downstream pressure (mmHg)',
  '0.001,2,1000,7.5,5',
  '0.002,6,2000,15,10',
  '0.003,4,,,12',
].join('\n');

describe('user-defined outcomes, evaluated from stored outputs', () => {
  it('reduces an object field over the particles, then over the timesteps', () => {
    const outcomes = [stress('max', 'max'), stress('mean', 'mean'), stress('min', 'last'), stress('max', 'min')];
    expect(evaluateCustomOutcomes(firstVersions(outcomes), steps, null)).toEqual({
      values: { user_1: 30, user_2: (4 + 12 + 9) / 3, user_3: 2, user_4: 10 },
      notes: {},
    });
  });

  it('reads a monitor plane’s column in the definition’s unit, skipping empty cells', () => {
    const plane = (p: 'upstream' | 'downstream', quantity: 'flow_rate' | 'pressure', over: CustomOutcome['over']) =>
      ({ source: 'plane', label: `${p} ${quantity} ${over}`, plane: p, quantity, over }) as const;
    const result = evaluateCustomOutcomes(
      firstVersions([
        plane('upstream', 'flow_rate', 'mean'),
        plane('upstream', 'pressure', 'last'),
        plane('downstream', 'pressure', 'max'),
      ]),
      [],
      monitors,
    );
    expect(result.values).toEqual({ user_1: 4, user_2: 15, user_3: 12 });
  });

  it('gives null with the reason when the outputs do not hold the source', () => {
    const field = { ...stress('max', 'max'), field: 'velocity' };
    const plane = { source: 'plane', label: 'Flow', plane: 'downstream', quantity: 'flow_rate', over: 'max' } as const;
    expect(evaluateCustomOutcomes(firstVersions([field, plane]), steps, monitors)).toEqual({
      values: { user_1: null, user_2: null },
      notes: {
        user_1: 'The run stored no frames with velocity.',
        user_2: 'The run’s monitors have no downstream flow_rate (L/min).',
      },
    });
    expect(evaluateCustomOutcomes(firstVersions([plane]), steps, null).notes.user_1).toBe(
      'The run stored no monitor values.',
    );
  });

  it('lists them after the kind’s outcomes, with unit and description from the catalogue', () => {
    const all = trialOutcomesOf({ kind: 'solid', customOutcomes: firstVersions([stress('max', 'max')]) });
    expect(all.at(-1)).toEqual({
      key: 'user_1',
      label: 'max max',
      unit: 'MPa',
      description:
        'Largest over the saved timesteps of the largest von Mises stress in the device over its particles (your outcome).',
    });
    expect(all.at(-2)!.key).toBe('paravalvular_gap_area');
  });
});

describe('checking a definition', () => {
  it('takes only sources of the kind’s catalogue and a name no other outcome has', () => {
    expect(customOutcomeProblem('solid', stress('max', 'max'), ['Peak von Mises stress'])).toBeNull();
    expect(
      customOutcomeProblem('solid', { ...stress('max', 'max'), label: 'PEAK von mises stress' }, [
        'Peak von Mises stress',
      ]),
    ).toBe('The trial already has an outcome named PEAK von mises stress.');
    expect(customOutcomeProblem('fluid', stress('max', 'max'), [])).toBe(
      'A fluid simulation stores no field von_mises_stress. Choose one of: velocity, pressure.',
    );
    const plane = { source: 'plane', label: 'Flow', plane: 'upstream', quantity: 'flow_rate', over: 'mean' } as const;
    expect(customOutcomeProblem('fluid', plane, [])).toBeNull();
    expect(customOutcomeDefinition('fluid', plane, 2)).toMatchObject({ key: 'user_3', unit: 'L/min' });
    expect(customOutcomeDefinition('fluid', plane, 'user_7', 2).description).toBe(
      'Mean over the saved timesteps of the flow rate on the plane just upstream of the device (your outcome, version 2).',
    );
  });

  it('refuses anything but the two source shapes (no expressions)', () => {
    expect(customOutcomesSchema.safeParse([{ ...stress('max', 'max'), expression: 'x * 2' }]).success).toBe(false);
    expect(customOutcomesSchema.safeParse([{ source: 'formula', label: 'x', text: '1+1' }]).success).toBe(false);
    expect(customOutcomesSchema.safeParse([{ ...stress('max', 'max'), label: ' ' }]).success).toBe(false);
  });
});

describe('changing a trial’s outcomes of the user’s own', () => {
  const created = '2026-11-01T00:00:00.000Z';
  const now = '2026-11-28T10:00:00.000Z';
  const outcomes = firstVersions([stress('max', 'max'), stress('mean', 'mean')]);
  const trial = {
    kind: 'solid' as const,
    customOutcomes: outcomes,
    customOutcomeHistory: firstHistory(outcomes, created, null),
  };
  const plan = (request: Parameters<typeof planCustomOutcomeChange>[1]) =>
    planCustomOutcomeChange(trial, request, now, 'u') as CustomOutcomeChange;

  it('keeps keys, makes a changed computation the next version, a new name alone not, and records both', () => {
    const change = plan([
      { key: 'user_1', definition: { ...stress('max', 'max'), label: 'Peak stress' } },
      { key: 'user_2', definition: stress('mean', 'last') },
      { key: null, definition: stress('min', 'min') },
    ]);
    expect(change.outcomes.map((o) => [o.key, o.version])).toEqual([
      ['user_1', 1],
      ['user_2', 2],
      ['user_3', 1],
    ]);
    expect(change).toMatchObject({ added: ['user_3'], changed: ['user_2'], renamed: ['user_1'], removed: [] });
    expect(change.history.map((v) => [v.key, v.version, v.since, v.until, v.definition.label])).toEqual([
      ['user_1', 1, created, null, 'Peak stress'],
      ['user_2', 1, created, now, 'mean mean'],
      ['user_2', 2, now, null, 'mean last'],
      ['user_3', 1, now, null, 'min min'],
    ]);
  });

  it('never gives a removed key to another outcome', () => {
    const removed = plan([{ key: 'user_1', definition: stress('max', 'max') }]);
    expect(removed.removed).toEqual(['user_2']);
    expect(removed.history.find((v) => v.key === 'user_2')!.until).toBe(now);
    const after = { ...trial, customOutcomes: removed.outcomes, customOutcomeHistory: removed.history };
    const added = planCustomOutcomeChange(after, [{ key: null, definition: stress('min', 'min') }], now, 'u');
    expect((added as CustomOutcomeChange).outcomes[0]!.key).toBe('user_3');
  });

  it('refuses a key the trial does not have now, a key twice, and a name taken, with the reason', () => {
    expect(plan([{ key: 'user_9', definition: stress('max', 'max') }])).toMatch(/has no outcome user_9/);
    expect(
      plan([
        { key: 'user_1', definition: stress('max', 'max') },
        { key: 'user_1', definition: stress('max', 'min') },
      ]),
    ).toMatch(/has no outcome user_1/);
    expect(plan([{ key: null, definition: { ...stress('max', 'max'), label: 'Maximum displacement' } }])).toBe(
      'The trial already has an outcome named Maximum displacement.',
    );
  });

  it('shows a value only when it came from the definition’s current version', () => {
    const patient = {
      outcomes: { peak_von_mises_stress: 30, user_1: 30, user_2: 8 },
      outcomeNotes: {},
      outcomeVersions: { user_2: 1 },
    };
    const change = plan([
      { key: 'user_1', definition: stress('max', 'max') },
      { key: 'user_2', definition: stress('mean', 'last') },
    ]);
    expect(currentOutcomeValues(change.outcomes, patient)).toEqual({
      values: { peak_von_mises_stress: 30, user_1: 30, user_2: null },
      notes: { user_2: 'Being read again from the saved outputs for the changed definition.' },
    });
    expect(currentOutcomeValues(change.outcomes, { ...patient, outcomeVersions: { user_2: 2 } }).values).toEqual(
      patient.outcomes,
    );
  });
});
