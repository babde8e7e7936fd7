import type { AnalysisSettings, CohortParameterTable } from './analyses';
import { analysisKeysInUse } from './analysis-dropped-parameters';
import { measurementParameter, type MeasurementOrder, type MeasurementOrderList } from './measurements';
import type { TrialOutcomeColumns } from './trials';

/**
 * The columns a population analysis reads beyond the cohort's own parameters: the outcomes of the project's trials
 * on the cohort and the measurements of the workspace's ready orders on it. The page builds its table with them,
 * the server the analysis report's (issue 23), so both analyse the same patients × parameters.
 */

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

/** The keys a calculation reads: the analysed parameters, the sizing proposal's and every one a device-fit range uses. */
export function keysInUse(parameters: readonly string[], settings: AnalysisSettings): string[] {
  return analysisKeysInUse({ parameters, settings });
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

/** Display precision per unit: tenths of a millimetre and of a degree are what a CT reader reports. */
const decimalsByUnit: Record<MeasurementOrder['measurements'][number]['unit'], number> = {
  mm: 1,
  'mm²': 0,
  mL: 1,
  '°': 1,
};

/** The ready orders on a cohort, oldest first: their measurements keep their place among the parameters. */
export function readyOrdersOn(list: MeasurementOrderList, cohortId: string): MeasurementOrderList['items'] {
  return list.items
    .filter((order) => order.cohortId === cohortId && order.status === 'ready')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * The cohort's table with the measurements of its ready orders as more parameters (group `measurement`, key
 * `measurement.<order>.<index>`, issue 23 item 3), in the table's patient order. A cell's value is the corrected
 * one where a user corrected it, else the automatic one; a failed measurement (no value) is NaN, which leaves the
 * patient out of a calculation that uses it, as a trial outcome they lack does. Labels say "(measured)", as the
 * TAVI set's names are those of the model's own parameters (Aortic annulus perimeter); with more than one order on
 * the cohort they say which order's day.
 */
export function withMeasurements(
  table: CohortParameterTable,
  orders: readonly MeasurementOrder[],
): CohortParameterTable {
  const mine = orders.filter((order) => order.cohortId === table.cohortId && order.status === 'ready');
  if (mine.length === 0) return table;
  const parameters = [...table.parameters];
  const values = [...table.values];
  for (const order of mine) {
    const rowOf = new Map(order.patients.map((row) => [row.patientId, row]));
    const suffix = mine.length > 1 ? ` (measured ${order.createdAt.slice(0, 10)})` : ' (measured)';
    order.measurements.forEach((measurement, j) => {
      parameters.push({
        key: measurementParameter(order.id, j),
        group: 'measurement',
        label: `${measurement.name}${suffix}`,
        unit: measurement.unit,
        decimals: decimalsByUnit[measurement.unit],
      });
      values.push(table.patients.map((id) => rowOf.get(id)?.cells[j]?.value ?? Number.NaN));
    });
  }
  return { ...table, parameters, values };
}
