import {
  customOutcomeDefinition,
  customOutcomeKey,
  customOutcomePlaneQuantityInfo,
  customOutcomesSchema,
  trialOutcomeDefinitions,
  type CustomOutcome,
  type SimulationKindName,
  type TrialOutcomeDefinition,
} from '@insilico/contracts';
import { readNumericCsv } from '@insilico/contracts/csv';
import { monitorColumn, type Outcomes } from './trial-outcomes';

/** The statistics of the object's scalars at one saved timestep (frame summaries: min, max, mean over particles). */
export type StepStats = Record<string, { min: number | null; max: number | null; mean: number | null }>;

/** A trial's stored user-defined outcomes (checked against the catalogue when the trial was created). */
export function storedCustomOutcomes(trial: { customOutcomes: unknown }): CustomOutcome[] {
  return customOutcomesSchema.parse(trial.customOutcomes);
}

/** Every outcome of a trial: the kind's, then the user's (`user_1`, …). */
export function trialOutcomesOf(trial: {
  kind: SimulationKindName;
  customOutcomes: unknown;
}): TrialOutcomeDefinition[] {
  return [
    ...trialOutcomeDefinitions[trial.kind],
    ...storedCustomOutcomes(trial).map((outcome, i) => customOutcomeDefinition(trial.kind, outcome, i)),
  ];
}

function reduce(values: readonly number[], how: CustomOutcome['over']): number | null {
  if (values.length === 0) return null;
  switch (how) {
    case 'max':
      return Math.max(...values);
    case 'min':
      return Math.min(...values);
    case 'mean':
      return values.reduce((s, v) => s + v, 0) / values.length;
    case 'last':
      return values.at(-1)!;
  }
}

/**
 * The user's outcomes of one finished run, from what the run stored: an object field reduced over the particles at
 * each saved timestep (the frames' statistics) then over the timesteps; a monitor plane's column of `monitors.csv`
 * reduced over the timesteps. No expression is evaluated: each definition names its source and its reductions. A
 * value the outputs cannot give is null with the reason.
 */
export function evaluateCustomOutcomes(
  outcomes: readonly CustomOutcome[],
  steps: readonly StepStats[],
  monitorsCsv: string | null,
): Outcomes {
  const values: Record<string, number | null> = {};
  const notes: Record<string, string> = {};
  const table = monitorsCsv ? readNumericCsv(monitorsCsv) : null;
  outcomes.forEach((outcome, i) => {
    const key = customOutcomeKey(i);
    let series: number[];
    let missing: string;
    if (outcome.source === 'object') {
      series = steps.flatMap((stats) => {
        const value = stats[outcome.field]?.[outcome.particles];
        return value !== null && value !== undefined && Number.isFinite(value) ? [value] : [];
      });
      missing = `The run stored no frames with ${outcome.field}.`;
    } else {
      const quantity = customOutcomePlaneQuantityInfo[outcome.quantity];
      const header = `${outcome.plane} ${outcome.quantity} (${quantity.unit})`;
      series = (table ? (monitorColumn(table, header) ?? []) : []).filter(Number.isFinite);
      missing = table ? `The run’s monitors have no ${header}.` : 'The run stored no monitor values.';
    }
    const value = reduce(series, outcome.over);
    values[key] = value;
    if (value === null) notes[key] = missing;
  });
  return { values, notes };
}
