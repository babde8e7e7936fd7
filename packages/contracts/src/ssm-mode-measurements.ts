import { z } from 'zod';
import { ssmPhases } from './ssm';
import { text } from './text';

/**
 * Measurements along an SSM's modes (issue 18 item 8): the built-in TAVI set taken on the model's shapes from
 * −3 SD to +3 SD of each of its first modes, the landmarks and their planes following each shape
 * (docs/decisions/ssm-mode-measurements.md).
 */

/** Standard deviations each mode is measured at. */
export const ssmModeMeasurementDeviations = [-3, -2, -1, 0, 1, 2, 3] as const;
/** The first modes measured (the modes the sliders offer). */
export const ssmModeMeasurementModes = 6;

/** One measurement at one position: its value in the measurement's unit, or why it could not be taken. */
export const ssmModeMeasurementCellSchema = z.object({ value: z.number().nullable(), failure: text().nullable() });

export const ssmModeMeasurementsSchema = z.object({
  /** The phase the model is built at: the measurements are taken on its shapes, at that phase. */
  phase: z.enum(ssmPhases),
  /** The measurement set and its version (the built-in TAVI set). */
  set: z.object({ key: text(), version: z.number().int(), name: text() }),
  deviations: z.array(z.number()),
  measurements: z.array(z.object({ key: text(), name: text(), unit: text() })),
  modes: z.array(
    z.object({
      /** 1-based. */
      mode: z.number().int(),
      /** Share of the model's variance. */
      explained: z.number(),
      /** One row per measurement, one cell per deviation. */
      rows: z.array(z.array(ssmModeMeasurementCellSchema)),
    }),
  ),
});
export type SsmModeMeasurements = z.infer<typeof ssmModeMeasurementsSchema>;
export type SsmModeMeasurementCell = z.infer<typeof ssmModeMeasurementCellSchema>;
