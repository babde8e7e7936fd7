import {
  measurementParameter,
  type CohortParameterTable,
  type MeasurementOrder,
  type MeasurementOrderList,
} from '@insilico/contracts';

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

/** What a patient left out of a calculation lacks: a trial outcome, a measurement, or either (for the page's note). */
export function lackingWhat(table: CohortParameterTable, keys: readonly string[]): string {
  const groups = new Set(
    keys.flatMap((key) => {
      const j = table.parameters.findIndex((p) => p.key === key);
      return j >= 0 && table.values[j]!.some(Number.isNaN) ? [table.parameters[j]!.group] : [];
    }),
  );
  if (groups.has('outcome') && groups.has('measurement')) return 'trial outcome or measurement';
  return groups.has('measurement') ? 'measurement' : 'trial outcome';
}
