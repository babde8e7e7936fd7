import { meetsCriterion, type TrialCriterion } from '@insilico/contracts';
import {
  matrixFromColumns,
  pearsonMatrix,
  summarise,
  wilsonInterval,
  type ParameterSummary,
  type Proportion,
} from '@insilico/stats';

/** One outcome of a trial as the report shows it: each patient's value (null: none) and its criterion, if any. */
export interface ReportOutcomeInput {
  key: string;
  label: string;
  unit: string;
  description: string;
  values: readonly (number | null)[];
  criterion: TrialCriterion | null;
}

export interface OutcomeFigures {
  /** Over the patients with a value; null when none has one. */
  summary: ParameterSummary | null;
  /** Sturges bins over [min, max] (one bin when every value is the same); counts per bin. */
  histogram: { edges: number[]; counts: number[] } | null;
  /** The patients meeting the criterion among those with a value, with its 95 % Wilson interval. */
  pass: Proportion | null;
  lowest: { patientId: string; value: number } | null;
  highest: { patientId: string; value: number } | null;
  /** Patients without a value (failed, cancelled, not finished, or not defined for the run). */
  missing: number;
}

/**
 * The report's figures of one outcome: summary (n, mean, SD, quartiles), a histogram, the pass fraction under the
 * criterion with its Wilson interval (Wilson 1927, as the population analysis' device fit), and the extreme patients.
 */
export function outcomeFigures(patientIds: readonly string[], outcome: ReportOutcomeInput): OutcomeFigures {
  const present = patientIds.flatMap((patientId, i) => {
    const value = outcome.values[i];
    return value !== null && value !== undefined && Number.isFinite(value) ? [{ patientId, value }] : [];
  });
  const missing = patientIds.length - present.length;
  if (present.length === 0) return { summary: null, histogram: null, pass: null, lowest: null, highest: null, missing };
  const summary = summarise(present.map((p) => p.value));
  let lowest = present[0]!;
  let highest = present[0]!;
  for (const p of present) {
    if (p.value < lowest.value) lowest = p;
    if (p.value > highest.value) highest = p;
  }
  const passed = outcome.criterion
    ? present.filter((p) => meetsCriterion(p.value, outcome.criterion ?? undefined)).length
    : null;
  return {
    summary,
    histogram: histogram(present.map((p) => p.value)),
    pass: passed === null ? null : wilsonInterval(passed, present.length),
    lowest,
    highest,
    missing,
  };
}

/** Sturges' rule: ⌈log₂ n⌉ + 1 equal bins over [min, max], the last bin closed; one bin when min = max. */
export function histogram(values: readonly number[]): { edges: number[]; counts: number[] } {
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (!(max > min)) return { edges: [min, max], counts: [values.length] };
  const bins = Math.ceil(Math.log2(values.length)) + 1;
  const width = (max - min) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? max : min + i * width));
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - min) / width))]!++;
  return { edges, counts };
}

/** Correlations need this many rows with a value (with two, r is ±1 whatever the values). */
export const minRowsForCorrelation = 3;

/** Pearson's r over the rows where `y` has a finite value; null below three such rows or when either is constant. */
export function pearson(x: readonly number[], y: readonly (number | null)[]): number | null {
  const rows = x.flatMap((xi, i) => {
    const yi = y[i];
    return yi !== null && yi !== undefined && Number.isFinite(yi) ? [[xi, yi] as const] : [];
  });
  if (rows.length < minRowsForCorrelation) return null;
  const r = pearsonMatrix(
    matrixFromColumns([Float64Array.from(rows, ([a]) => a), Float64Array.from(rows, ([, b]) => b)]),
  ).r[1]!;
  return Number.isFinite(r) ? r : null;
}
