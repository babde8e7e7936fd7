import type { Sex } from '@insilico/anatomy';

/**
 * The inflow through the LVOT over one heart cycle from stroke volume and heart rate: a half-sine ejection over the
 * left-ventricular ejection time, no flow in diastole (the aortic valve is closed). The half sine's integral is the
 * stroke volume, so the mean flow over the cycle is SV × HR (the table, linear between its rows, within 1 %).
 */
export interface Inflow {
  /** Cycle length, s. */
  readonly period: number;
  /** Left-ventricular ejection time, s. */
  readonly ejection: number;
  /** Mean flow over the cycle, m³/s. */
  readonly mean: number;
  /** Peak flow, m³/s. */
  readonly peak: number;
  /** [time s, flow m³/s] rows over one period (times rising, first 0). */
  readonly table: readonly (readonly [number, number])[];
}

/** Rows of the ejection half sine (the table interpolates linearly between rows). */
const EJECTION_ROWS = 16;

/**
 * Ejection time from heart rate, Weissler, Harris & Schoenfeld, Circulation 37 (1968) 149–159: LVET = 413 − 1.7 HR ms
 * (men), 418 − 1.6 HR ms (women), their mean when the sex is unknown; held to at least 40 % of the cycle's systolic share at high rates.
 */
export function ejectionTime(heartRate_bpm: number, sex: Sex | null): number {
  const female = 418 - 1.6 * heartRate_bpm;
  const male = 413 - 1.7 * heartRate_bpm;
  // Sex unknown (a patient of the user's own imaging): the mean of the two regressions.
  const ms = sex === 'female' ? female : sex === 'male' ? male : (female + male) / 2;
  const period = 60 / heartRate_bpm;
  return Math.min(Math.max(ms / 1000, 0.2 * period), 0.6 * period);
}

/** The inflow of a stroke volume (mL) at a heart rate (bpm). */
export function inflowOf(strokeVolume_mL: number, heartRate_bpm: number, sex: Sex | null): Inflow {
  const period = 60 / heartRate_bpm;
  const ejection = ejectionTime(heartRate_bpm, sex);
  const sv = strokeVolume_mL * 1e-6;
  // ∫₀ᵀ Q̂ sin(πt/T) dt = 2Q̂T/π = SV.
  const peak = (Math.PI * sv) / (2 * ejection);
  const table: [number, number][] = [];
  for (let k = 0; k <= EJECTION_ROWS; k++) {
    const t = (ejection * k) / EJECTION_ROWS;
    table.push([t, k === EJECTION_ROWS ? 0 : peak * Math.sin((Math.PI * k) / EJECTION_ROWS)]);
  }
  table.push([period * 0.999, 0]);
  return { period, ejection, mean: sv / period, peak, table };
}
