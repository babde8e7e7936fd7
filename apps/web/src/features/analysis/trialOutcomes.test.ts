import { describe, expect, it } from 'vitest';
import {
  analysisSettingsSchema,
  trialOutcomeParameter,
  type AnalysisSettings,
  type CohortParameterTable,
  type TrialOutcomeColumns,
} from '@insilico/contracts';
import { goneOutcomesInUse, keysInUse, rowsWithoutValues, trialRunsOf, withTrialOutcomes } from './trialOutcomes';

const table: CohortParameterTable = {
  cohortId: 'c',
  synthetic: true,
  patients: ['SYN-1', 'SYN-2', 'SYN-3'],
  sex: ['F', 'M', 'F'],
  age: [70, 80, 75],
  parameters: [{ key: 'height_cm', group: 'body', label: 'Height', unit: 'cm', decimals: 1 }],
  values: [[160, 175, 168]],
};
const trial: TrialOutcomeColumns = {
  trialId: 't',
  trialName: 'Valve A',
  cohortId: 'c',
  // Another order than the table's, and one patient missing.
  ids: ['SYN-3', 'SYN-1'],
  outcomes: [
    { key: 'pressure_drop', label: 'Pressure drop', unit: 'mmHg', description: '', parameter: 'trial.t.pressure_drop' },
  ],
  values: [[12.5, null]],
  runs: [null, null],
  instances: null,
};

describe('trial outcomes in the analysis table', () => {
  it('adds each outcome as a parameter in the table’s patient order, NaN where a patient has none', () => {
    const merged = withTrialOutcomes(table, [trial]);
    expect(merged.parameters.map((p) => [p.key, p.group, p.label])).toEqual([
      ['height_cm', 'body', 'Height'],
      ['trial.t.pressure_drop', 'outcome', 'Valve A: Pressure drop'],
    ]);
    expect(merged.values[1]).toEqual([Number.NaN, Number.NaN, 12.5]);
    expect(table.parameters).toHaveLength(1);
  });

  it('leaves out the patients without a value of a parameter in use (analysed or in a device-fit range)', () => {
    const merged = withTrialOutcomes(table, [trial]);
    expect(rowsWithoutValues(merged, ['height_cm'])).toEqual([]);
    expect(rowsWithoutValues(merged, ['height_cm', 'trial.t.pressure_drop'])).toEqual([0, 1]);
    const settings = {
      sizingParameter: null,
      deviceFits: [{ sizes: [{ ranges: [{ parameter: 'trial.t.pressure_drop', min: 0, max: 20 }] }] }],
    } as unknown as AnalysisSettings;
    expect(keysInUse(['height_cm'], settings)).toEqual(['height_cm', 'trial.t.pressure_drop']);
  });

  it('finds the trial outcomes in use that the table lacks (their trial was deleted)', () => {
    const id = (n: number) => `${n}`.repeat(8) + '-1111-4111-8111-111111111111';
    const kept = trialOutcomeParameter(id(1), 'pressure_drop');
    const gone = trialOutcomeParameter(id(2), 'pressure_drop');
    const merged = withTrialOutcomes(table, [{ ...trial, outcomes: [{ ...trial.outcomes[0]!, parameter: kept }] }]);
    const settings = analysisSettingsSchema.parse({
      deviceFits: [{ label: 'V', sizes: [{ name: 'S', ranges: [{ parameter: gone, min: 0, max: 20 }] }] }],
    });
    expect(goneOutcomesInUse(merged, ['height_cm', kept, 'shoe_size'], settings)).toEqual([gone]);
    expect(goneOutcomesInUse(merged, ['height_cm', kept], analysisSettingsSchema.parse({}))).toEqual([]);
  });
});

describe('trial runs of the extreme cases', () => {
  const run = (n: number) => ({
    roomId: `0000000${n}-0000-4000-8000-000000000001`,
    simulationId: `0000000${n}-0000-4000-8000-000000000002`,
  });
  const valveA: TrialOutcomeColumns = { ...trial, runs: [run(1), null] };
  const valveB: TrialOutcomeColumns = {
    ...trial,
    trialId: 'u',
    trialName: 'Valve B',
    ids: ['SYN-1', 'SYN-3'],
    outcomes: [{ ...trial.outcomes[0]!, parameter: 'trial.u.pressure_drop' }],
    runs: [run(2), run(3)],
  };

  it('gives each patient’s completed runs of the trials whose outcomes are analysed, in the trials’ order', () => {
    const runs = trialRunsOf([valveA, valveB], ['height_cm', 'trial.t.pressure_drop', 'trial.u.pressure_drop']);
    expect(runs.get('SYN-3')).toEqual([
      { trialName: 'Valve A', ...run(1) },
      { trialName: 'Valve B', ...run(3) },
    ]);
    // No completed run in Valve A: only Valve B's.
    expect(runs.get('SYN-1')).toEqual([{ trialName: 'Valve B', ...run(2) }]);
    expect(runs.get('SYN-2')).toBeUndefined();
  });

  it('leaves out the trials none of whose outcomes is analysed', () => {
    expect(trialRunsOf([valveA, valveB], ['height_cm', 'trial.u.pressure_drop']).get('SYN-3')).toEqual([
      { trialName: 'Valve B', ...run(3) },
    ]);
    expect(trialRunsOf([valveA, valveB], ['height_cm']).size).toBe(0);
  });
});
