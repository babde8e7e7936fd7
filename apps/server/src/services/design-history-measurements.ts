import { z } from 'zod';
import { measurementPatientRowSchema, orderedMeasurementSchema, type ResultSnapshot } from '@insilico/contracts';

/** A measurement order's kept results as result-snapshot-contents.ts writes them (`measurementResults`). */
const measurementContentSchema = z.object({
  kind: z.literal('measurement-results'),
  order: z.object({ cohortName: z.string(), measurements: z.array(orderedMeasurementSchema) }),
  patients: z.array(measurementPatientRowSchema),
});

/** One measurement of a kept order, over its patients: how many were measured, failed or corrected, and the values. */
export interface MeasurementSummaryRow {
  name: string;
  version: number;
  phase: string;
  unit: string;
  /** Patients with a value (automatic or corrected). */
  measured: number;
  failed: number;
  corrected: number;
  mean: number | null;
  min: number | null;
  max: number | null;
}

export interface MeasurementSnapshotSummary {
  cohortName: string;
  patients: number;
  rows: MeasurementSummaryRow[];
}

/**
 * What the design history file shows of a measurement order's kept results (issue 20 item 7): per measurement, the
 * patients measured, failed and corrected and the used values' mean, minimum and maximum (the values per patient are
 * in the evidence ZIP). Null for content of another form.
 */
export function measurementSnapshotSummary(
  snapshot: Pick<ResultSnapshot, 'content'>,
): MeasurementSnapshotSummary | null {
  const parsed = measurementContentSchema.safeParse(snapshot.content);
  if (!parsed.success) return null;
  const { order, patients } = parsed.data;
  const rows = order.measurements.map((measurement, index): MeasurementSummaryRow => {
    const cells = patients.flatMap((patient) => patient.cells[index] ?? []);
    const values = cells.flatMap((cell) => (cell.value === null ? [] : [cell.value]));
    return {
      name: measurement.name,
      version: measurement.version,
      phase: measurement.phase,
      unit: measurement.unit,
      measured: values.length,
      failed: cells.filter((cell) => cell.value === null && cell.failure !== null).length,
      corrected: cells.filter((cell) => cell.corrected !== null).length,
      mean: values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null,
      min: values.length ? Math.min(...values) : null,
      max: values.length ? Math.max(...values) : null,
    };
  });
  return { cohortName: order.cohortName, patients: patients.length, rows };
}
