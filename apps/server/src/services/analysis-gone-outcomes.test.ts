import { analysisSettingsSchema, trialOutcomeParameter, type AnalysisSettingsInput } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { dropGoneTrialOutcomes } from './analysis-gone-outcomes';

const kept = '11111111-1111-4111-8111-111111111111';
const deleted = '22222222-2222-4222-8222-222222222222';
const stress = trialOutcomeParameter(deleted, 'peak_von_mises_stress');
const ovality = trialOutcomeParameter(deleted, 'final_ovality');
const keptStress = trialOutcomeParameter(kept, 'peak_von_mises_stress');
/** The outcomes of the project's trials on the cohort now: only the kept trial's. */
const known = new Set([keptStress, trialOutcomeParameter(kept, 'final_ovality')]);

const settings = (input: AnalysisSettingsInput = {}) => analysisSettingsSchema.parse(input);
const fits = (parameter: string) =>
  settings({
    sizingParameter: parameter,
    deviceFits: [
      {
        label: 'Valve v2',
        sizes: [
          { name: 'S', ranges: [{ parameter, min: 0, max: 5 }] },
          {
            name: 'M',
            ranges: [
              { parameter, min: 0, max: 5 },
              { parameter: 'aorticAnnulusDiameter_mm', min: 20, max: 24 },
            ],
          },
        ],
      },
    ],
  });

describe('dropGoneTrialOutcomes', () => {
  it('changes nothing while every trial outcome is known', () => {
    const use = { parameters: ['height_cm', keptStress], settings: fits(keptStress) };
    expect(dropGoneTrialOutcomes(use, use, known)).toEqual({ ...use, dropped: [] });
  });

  it('takes a deleted trial’s outcomes out of the parameters, the sizing proposal and the device-fit ranges', () => {
    const use = { parameters: ['height_cm', stress, keptStress, ovality], settings: fits(stress) };
    const result = dropGoneTrialOutcomes(use, use, known);
    expect(result.parameters).toEqual(['height_cm', keptStress]);
    expect(result.settings.sizingParameter).toBeNull();
    // Size S had only the gone range, so it goes; size M keeps its other range.
    expect(result.settings.deviceFits[0]!.sizes).toEqual([
      { name: 'M', ranges: [{ parameter: 'aorticAnnulusDiameter_mm', min: 20, max: 24 }] },
    ]);
    expect(result.dropped).toEqual([
      {
        parameter: stress,
        label: 'Peak von Mises stress',
        reason: 'Its trial was deleted, so its outcomes are no longer available.',
        removedFrom: ['the analysed parameters', 'the sizing proposal', 'size S of Valve v2', 'size M of Valve v2'],
      },
      {
        parameter: ovality,
        label: 'Final ovality',
        reason: 'Its trial was deleted, so its outcomes are no longer available.',
        removedFrom: ['the analysed parameters'],
      },
    ]);
  });

  it('says so when the trial is still there but no longer has the outcome', () => {
    const gone = trialOutcomeParameter(kept, 'pressure_drop');
    const use = { parameters: ['height_cm', gone], settings: settings() };
    expect(dropGoneTrialOutcomes(use, use, known).dropped[0]!.reason).toBe('Its trial no longer has this outcome.');
  });

  it('leaves a key the stored analysis never had to the usual check (refused there as unknown)', () => {
    const stored = { parameters: ['height_cm'], settings: settings() };
    const next = { parameters: ['height_cm', stress], settings: settings() };
    expect(dropGoneTrialOutcomes(stored, next, known)).toEqual({ ...next, dropped: [] });
  });

  it('never takes out a parameter that is not a trial outcome', () => {
    const use = { parameters: ['shoe_size', 'measurement.x.1'], settings: settings() };
    expect(dropGoneTrialOutcomes(use, use, known).dropped).toEqual([]);
  });
});
