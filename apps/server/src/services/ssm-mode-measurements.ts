import {
  ssmModeMeasurementDeviations,
  ssmModeMeasurementModes,
  type SsmModeMeasurements,
  type SsmPhase,
} from '@insilico/contracts';
import { toCsv } from '@insilico/contracts/csv';
import {
  TAVI_MEASUREMENTS,
  TAVI_SET_KEY,
  TAVI_SET_VERSION,
  unitOf,
  type MeasurementDefinition,
  type MeasurementOutcome,
} from '@insilico/measure';

/**
 * Measurements along an SSM's modes (issue 18 item 8): which shapes are measured, with what, and how the outcomes
 * read as the API's table and as CSV. The measuring itself is the CPU pool's (cpu/ssm-measurement.task.ts).
 */

/** The built-in TAVI set at the model's phase: the shapes of a model have only that one. */
export function modeMeasurementDefinitions(phase: SsmPhase): MeasurementDefinition[] {
  return TAVI_MEASUREMENTS.map((definition) => ({ ...definition, phase }));
}

/** The modes measured: the first ones, as many as the sliders offer. */
export function measuredModes(modeCount: number): number {
  return Math.min(modeCount, ssmModeMeasurementModes);
}

/**
 * The shapes to measure, as standard deviations per mode: the mean once, then each measured mode at each deviation
 * other than 0.
 */
export function modeMeasurementShapes(modeCount: number): number[][] {
  const shapes: number[][] = [[]];
  for (let k = 0; k < measuredModes(modeCount); k++)
    for (const z of ssmModeMeasurementDeviations)
      if (z !== 0) shapes.push(Array.from({ length: k + 1 }, (_, i) => (i === k ? z : 0)));
  return shapes;
}

/** The outcomes of {@link modeMeasurementShapes}' shapes as the API's table. */
export function modeMeasurementTable(
  phase: SsmPhase,
  explained: readonly number[],
  outcomes: readonly (readonly MeasurementOutcome[])[],
): SsmModeMeasurements {
  const definitions = modeMeasurementDefinitions(phase);
  const cell = (o: MeasurementOutcome | undefined) =>
    o === undefined
      ? { value: null, failure: 'The measurement was not taken.' }
      : 'value' in o
        ? { value: o.value, failure: null }
        : { value: null, failure: o.failure };
  const nonZero = ssmModeMeasurementDeviations.filter((z) => z !== 0).length;
  return {
    phase,
    set: { key: TAVI_SET_KEY, version: TAVI_SET_VERSION, name: 'TAVI planning (SCCT consensus)' },
    deviations: [...ssmModeMeasurementDeviations],
    measurements: definitions.map((d) => ({ key: d.key, name: d.name, unit: unitOf(d.geometry) })),
    modes: Array.from({ length: measuredModes(explained.length) }, (_, k) => {
      let next = 1 + k * nonZero;
      const shapeOf = ssmModeMeasurementDeviations.map((z) => (z === 0 ? 0 : next++));
      return {
        mode: k + 1,
        explained: explained[k] ?? 0,
        rows: definitions.map((_, m) => shapeOf.map((s) => cell(outcomes[s]?.[m]))),
      };
    }),
  };
}

/** The table as CSV: a row per mode and deviation, a column per measurement with its unit, failures in words. */
export function modeMeasurementCsv(table: SsmModeMeasurements): string {
  const header = ['mode', 'sd', ...table.measurements.map((m) => `${m.name} (${m.unit})`)];
  const rows = table.modes.flatMap((mode) =>
    table.deviations.map((sd, d) => [
      mode.mode,
      sd,
      ...mode.rows.map((row) => row[d]?.value ?? row[d]?.failure ?? null),
    ]),
  );
  return toCsv([header, ...rows]);
}
