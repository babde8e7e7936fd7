import {
  analysisKeysInUse,
  trialOutcomeParameterPattern,
  type AnalysisSettings,
  type CohortParameterTable,
  type TrialOutcomeColumns,
} from '@insilico/contracts';

/**
 * The cohort's table with the outcomes of the project's trials on that cohort as more parameters (group `outcome`,
 * key `trial.<id>.<outcome>`, labelled with the trial's name). A patient without an outcome (failed, not finished,
 * or no value for the run) has NaN there; `rowsWithoutValues` leaves such patients out of a calculation that uses
 * the parameter (docs/decisions/trials.md, "Into the population analysis").
 */
export function withTrialOutcomes(
  table: CohortParameterTable,
  trials: readonly TrialOutcomeColumns[],
): CohortParameterTable {
  if (trials.length === 0) return table;
  const parameters = [...table.parameters];
  const values = [...table.values];
  for (const trial of trials) {
    const rowOf = new Map(trial.ids.map((id, i) => [id, i]));
    trial.outcomes.forEach((outcome, j) => {
      parameters.push({
        key: outcome.parameter,
        group: 'outcome',
        label: `${trial.trialName}: ${outcome.label}`,
        unit: outcome.unit,
        decimals: 3,
      });
      values.push(
        table.patients.map((id) => {
          const row = rowOf.get(id);
          const value = row === undefined ? null : (trial.values[j]?.[row] ?? null);
          return value ?? Number.NaN;
        }),
      );
    });
  }
  return { ...table, parameters, values };
}

/** The keys a calculation reads: the analysed parameters and every parameter a device-fit range uses. */
export function keysInUse(parameters: readonly string[], settings: AnalysisSettings): string[] {
  return analysisKeysInUse({ parameters, settings });
}

/**
 * The trial outcomes in use that the table lacks: their trial was deleted since the analysis was saved. The page
 * saves the analysis again at once so the server takes them out (docs/decisions/trials.md).
 */
export function goneOutcomesInUse(
  table: CohortParameterTable,
  parameters: readonly string[],
  settings: AnalysisSettings,
): string[] {
  const keys = new Set(table.parameters.map((p) => p.key));
  return keysInUse(parameters, settings).filter((key) => trialOutcomeParameterPattern.test(key) && !keys.has(key));
}

/** Rows (patients) with no value (NaN) for any of `keys`: left out of the calculation, like excluded patients. */
export function rowsWithoutValues(table: CohortParameterTable, keys: readonly string[]): number[] {
  const columns = keys.flatMap((key) => {
    const j = table.parameters.findIndex((p) => p.key === key);
    return j < 0 ? [] : [table.values[j]!];
  });
  const rows: number[] = [];
  for (let i = 0; i < table.patients.length; i++) if (columns.some((c) => Number.isNaN(c[i]))) rows.push(i);
  return rows;
}
