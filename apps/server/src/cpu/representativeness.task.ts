import {
  energyTest,
  ksTwoSample,
  mahalanobisQq,
  mulberry32,
  percentileOfSorted,
  rangeCovered,
  sortedFinite,
  summarise,
  type EnergyTest,
  type KsTest,
  type MahalanobisQq,
  type PopulationMatrix,
  type RangeCovered,
} from '@insilico/stats';
import { cpuTask } from './task';

/** A reference parameter: its patients' values (CSV), or its published statistics. */
export type ReferenceColumn =
  | { kind: 'values'; values: Float64Array }
  | { kind: 'summary'; mean: number; sd: number; n: number | null; percentiles: { p: number; value: number }[] };

export interface ComparisonInput {
  /** The cohort's values per compared parameter (NaN: missing). */
  cohort: Float64Array[];
  reference: ReferenceColumn[];
  /** Reference correlations (summary statistics; row-major p × p), null for a CSV. */
  correlation: number[] | null;
  permutations: number;
  seed: number;
}

export interface Distribution {
  n: number | null;
  mean: number;
  sd: number;
  p5: number | null;
  p50: number | null;
  p95: number | null;
}

export interface ParameterComparison {
  cohort: Distribution;
  reference: Distribution;
  ks: Pick<KsTest, 'statistic' | 'pValue' | 'method'> | null;
  range: Pick<RangeCovered, 'rangeFraction' | 'patientFraction'> | null;
  standardisedDifference: number;
  sdRatio: number;
}

export interface ComparisonOutput {
  parameters: ParameterComparison[];
  energy: (Omit<EnergyTest, 'n1' | 'n2'> & { cohortPatients: number; referencePatients: number }) | null;
  mahalanobis: MahalanobisQq | null;
}

/** The energy test's pooled distance matrix is (n + m)²: each sample is capped at this many patients (seeded draw). */
export const ENERGY_SAMPLE_CAP = 1000;

/**
 * The cohort against a reference population (issue 23): per parameter the two distributions, the two-sample
 * Kolmogorov–Smirnov test and the range covered (CSV references); over all parameters the energy distance on the
 * parameters scaled by the reference's SDs (CSV, complete rows, each sample capped at {@link ENERGY_SAMPLE_CAP}) and
 * the cohort's squared Mahalanobis distances from the reference's mean and covariance (from the CSV's complete rows,
 * or from published SDs and correlations). Runs in the CPU pool: the permutations cost (n + m)² each.
 */
export function compareWithReference(input: ComparisonInput): ComparisonOutput {
  const parameters = input.cohort.map((cohortColumn, j) => {
    const reference = input.reference[j]!;
    const cohort = distributionOf(cohortColumn);
    const ref = reference.kind === 'values' ? distributionOf(reference.values) : publishedDistribution(reference);
    return {
      cohort,
      reference: ref,
      ks: reference.kind === 'values' ? pick(ksTwoSample(cohortColumn, reference.values)) : null,
      range:
        reference.kind === 'values'
          ? (({ rangeFraction, patientFraction }) => ({ rangeFraction, patientFraction }))(
              rangeCovered(cohortColumn, reference.values),
            )
          : null,
      standardisedDifference: (cohort.mean - ref.mean) / ref.sd,
      sdRatio: cohort.sd / ref.sd,
    };
  });
  const sds = parameters.map((p) => p.reference.sd);
  const means = parameters.map((p) => p.reference.mean);
  const values = input.reference.every((r) => r.kind === 'values')
    ? input.reference.map((r) => (r as { values: Float64Array }).values)
    : null;
  return {
    parameters,
    energy: values && values.length >= 2 ? energyOf(input, values, sds, means) : null,
    mahalanobis: mahalanobisOf(input, values, sds, means),
  };
}

function pick(test: KsTest): ParameterComparison['ks'] {
  return { statistic: test.statistic, pValue: test.pValue, method: test.method };
}

function distributionOf(values: ArrayLike<number>): Distribution {
  const sorted = sortedFinite(values);
  const summary = summarise(sorted);
  return {
    n: sorted.length,
    mean: summary.mean,
    sd: summary.sd,
    p5: percentileOfSorted(sorted, 5),
    p50: percentileOfSorted(sorted, 50),
    p95: percentileOfSorted(sorted, 95),
  };
}

function publishedDistribution(reference: Extract<ReferenceColumn, { kind: 'summary' }>): Distribution {
  const at = (p: number) => reference.percentiles.find((q) => q.p === p)?.value ?? null;
  return { n: reference.n, mean: reference.mean, sd: reference.sd, p5: at(5), p50: at(50), p95: at(95) };
}

/** The complete rows (a value for every column) of columns, at most `cap` of them drawn without replacement. */
function completeRows(columns: readonly ArrayLike<number>[], cap: number, seed: number): PopulationMatrix {
  const n = columns[0]?.length ?? 0;
  let rows: number[] = [];
  for (let i = 0; i < n; i++) if (columns.every((c) => Number.isFinite(c[i] ?? Number.NaN))) rows.push(i);
  if (rows.length > cap) {
    const random = mulberry32(seed);
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    rows = rows.slice(0, cap).sort((a, b) => a - b);
  }
  const data = new Float64Array(rows.length * columns.length);
  columns.forEach((c, j) => rows.forEach((i, k) => (data[j * rows.length + k] = c[i] as number)));
  return { rows: rows.length, cols: columns.length, data };
}

/** (x − mean) / sd per column, in place. */
function scale(matrix: PopulationMatrix, sds: readonly number[], means: readonly number[]): PopulationMatrix {
  for (let j = 0; j < matrix.cols; j++)
    for (let i = 0; i < matrix.rows; i++) {
      const k = j * matrix.rows + i;
      matrix.data[k] = (matrix.data[k]! - means[j]!) / sds[j]!;
    }
  return matrix;
}

function energyOf(input: ComparisonInput, reference: Float64Array[], sds: number[], means: number[]) {
  const cohort = scale(completeRows(input.cohort, ENERGY_SAMPLE_CAP, input.seed), sds, means);
  const ref = scale(completeRows(reference, ENERGY_SAMPLE_CAP, input.seed + 1), sds, means);
  if (cohort.rows < 2 || ref.rows < 2) return null;
  const { n1, n2, ...test } = energyTest(cohort, ref, { permutations: input.permutations, seed: input.seed });
  return { ...test, cohortPatients: n1, referencePatients: n2 };
}

/** The reference's covariance: from its complete rows (CSV) or SDs and correlations (published); null if singular. */
function mahalanobisOf(
  input: ComparisonInput,
  reference: Float64Array[] | null,
  sds: number[],
  means: number[],
): MahalanobisQq | null {
  const p = input.cohort.length;
  let mean = means;
  const covariance = new Float64Array(p * p);
  if (reference) {
    const rows = completeRows(reference, Number.MAX_SAFE_INTEGER, input.seed);
    if (rows.rows <= p) return null;
    mean = Array.from({ length: p }, (_, j) => average(rows.data.subarray(j * rows.rows, (j + 1) * rows.rows)));
    for (let j = 0; j < p; j++)
      for (let k = 0; k <= j; k++) {
        let s = 0;
        for (let i = 0; i < rows.rows; i++)
          s += (rows.data[j * rows.rows + i]! - mean[j]!) * (rows.data[k * rows.rows + i]! - mean[k]!);
        covariance[j * p + k] = covariance[k * p + j] = s / (rows.rows - 1);
      }
  } else {
    for (let j = 0; j < p; j++)
      for (let k = 0; k < p; k++) covariance[j * p + k] = sds[j]! * sds[k]! * (input.correlation?.[j * p + k] ?? 0);
  }
  try {
    return mahalanobisQq(completeRows(input.cohort, Number.MAX_SAFE_INTEGER, input.seed), mean, covariance);
  } catch {
    // A singular covariance (a constant or perfectly correlated parameter): no distance to give.
    return null;
  }
}

function average(values: Float64Array): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

export const representativenessTask = cpuTask(import.meta.url, 'compareWithReference', compareWithReference);
