import { analysePopulation, type PopulationAnalysis } from './analysis';
import { deviceCoverage, proposeSizeSet, type DeviceCoverage, type SizeSetProposal } from './coverage';
import type { BandwidthRule } from './density';
import { StatsInputError } from './errors';
import { column, withoutRows, type PopulationMatrix } from './matrix';

/**
 * The settings of a saved population analysis as the job reads them (the contract's `AnalysisSettings`, which this
 * package does not import: every field here is one of its fields).
 */
export interface AnalysisJobSettings {
  percentiles: readonly number[];
  correlationThreshold: number;
  alpha: number;
  bandwidth: BandwidthRule;
  sizingParameter: string | null;
  seedPercentile: number;
  targetCoveragePercent: number;
  sizeSetWidth: number | null;
  deviceFits: readonly {
    label: string;
    versionId: string | null;
    sizes: readonly { name: string; ranges: readonly { parameter: string; min: number; max: number }[] }[];
  }[];
}

/** One analysis to run. Keys name parameters; the job resolves them to columns. */
export interface AnalysisJob {
  /** Every patient × every parameter of the cohort table, column-major. */
  matrix: PopulationMatrix;
  /** The parameter key of each matrix column. */
  keys: readonly string[];
  /** The analysed parameters, in the order the page shows them. */
  parameters: readonly string[];
  /** Matrix rows (patients) left out. */
  excludedRows: readonly number[];
  settings: AnalysisJobSettings;
}

/** Coverage of one device version's sizes. */
export interface FitCoverage {
  label: string;
  versionId: string | null;
  /** Null when the version has no sizes yet. */
  coverage: DeviceCoverage | null;
}

/** The results, in terms of the analysed rows (map back to patients with `rows`). */
export interface AnalysisOutcome {
  /** The analysed parameters, in the order of the job's `parameters`. */
  parameters: string[];
  /** Matrix row of each analysed patient (its index in the cohort table). */
  rows: number[];
  analysis: PopulationAnalysis;
  fits: FitCoverage[];
  sizeSet: SizeSetProposal | null;
}

function indexOf(keys: readonly string[], key: string): number {
  const index = keys.indexOf(key);
  if (index < 0) throw new StatsInputError(`The cohort has no parameter ${key}.`);
  return index;
}

/**
 * A saved population analysis run on its cohort's table: the analysis of the analysed parameters on the patients
 * not left out, every device fit's coverage (sizes may use any parameter of the cohort) and the size-set proposal.
 * The page runs it in its Web Worker, the server for the analysis report (docs/decisions/stats-where-analysis-runs.md).
 * @throws InsufficientPatientsError below 20 patients, StatsInputError for a parameter the table lacks.
 */
export function runAnalysisJob(job: AnalysisJob): AnalysisOutcome {
  const excluded = new Set(job.excludedRows);
  const included = withoutRows(job.matrix, excluded);
  const rows: number[] = [];
  for (let i = 0; i < job.matrix.rows; i++) if (!excluded.has(i)) rows.push(i);

  // The analysed parameters as their own matrix: its columns are copies of the included matrix's.
  const selected = job.parameters.map((key) => indexOf(job.keys, key));
  const data = new Float64Array(included.rows * selected.length);
  selected.forEach((j, k) => data.set(column(included, j), k * included.rows));
  const analysed: PopulationMatrix = { rows: included.rows, cols: selected.length, data };

  const { settings } = job;
  const sizingIndex = settings.sizingParameter === null ? -1 : job.parameters.indexOf(settings.sizingParameter);
  const analysis = analysePopulation(analysed, {
    percentiles: settings.percentiles,
    correlationThreshold: settings.correlationThreshold,
    alpha: settings.alpha,
    bandwidth: settings.bandwidth,
    ...(sizingIndex >= 0
      ? {
          sizing: {
            parameter: sizingIndex,
            seedPercentile: settings.seedPercentile,
            targetCoveragePercent: settings.targetCoveragePercent,
          },
        }
      : {}),
  });

  // Sizes may use any parameter of the cohort, so coverage is computed on the included full matrix.
  const fits = settings.deviceFits.map((fit) => ({
    label: fit.label,
    versionId: fit.versionId,
    coverage:
      fit.sizes.length === 0
        ? null
        : deviceCoverage(
            included,
            fit.sizes.map((size) => ({
              name: size.name,
              ranges: size.ranges.map((range) => ({
                parameter: indexOf(job.keys, range.parameter),
                min: range.min,
                max: range.max,
              })),
            })),
          ),
  }));
  const sizeSet =
    sizingIndex >= 0 && settings.sizeSetWidth !== null
      ? proposeSizeSet(column(analysed, sizingIndex), settings.sizeSetWidth, {
          targetCoveragePercent: settings.targetCoveragePercent,
        })
      : null;
  return { parameters: [...job.parameters], rows, analysis, fits, sizeSet };
}
