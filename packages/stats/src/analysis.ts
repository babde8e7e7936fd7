import {
  centredCrossProducts,
  correlationFromCrossProducts,
  correlationPValues,
  flagCorrelatedPairs,
  sortAndRank,
  spearmanFromRanks,
  type CorrelatedPair,
  type CorrelationMatrix,
} from './correlation';
import { ANALYSIS_DEFAULTS } from './defaults';
import { kernelDensityOfSorted, type BandwidthRule, type DensityCurve } from './density';
import { assertEnoughPatients, StatsInputError } from './errors';
import { extremeCases, type ExtremeCaseResult } from './extremeCases';
import {
  deviceCoverage,
  proposeSizingWindow,
  type DeviceCoverage,
  type SizeWindow,
  type SizingProposal,
} from './coverage';
import type { PopulationMatrix } from './matrix';
import { mahalanobisFromCentred, tukeyOutliers, type MahalanobisOutliers, type TukeyOutliers } from './outliers';
import { percentilesOfSorted, type PercentileResult } from './percentiles';
import { summariseSorted, type ParameterSummary } from './summary';

/** Settings of a population analysis; every field defaults to spec §9. */
export interface AnalysisSettings {
  /** Percentiles in percent (default 5/50/95). */
  percentiles?: readonly number[];
  /** |r| threshold for flagged pairs (default 0.9). */
  correlationThreshold?: number;
  /** Significance level for correlations and the Mahalanobis cut-off (default 0.001). */
  alpha?: number;
  /** Tukey fence multiplier (default 1.5). */
  tukeyK?: number;
  /** PDF bandwidth rule (default Scott). */
  bandwidth?: BandwidthRule;
  /** PDF grid points (default 256). */
  densityPoints?: number;
  /** Number of extreme cases, 1–5 (default 5). */
  extremeCases?: number;
  /** Seed of the k-means++ initialisation (default 1). */
  seed?: number;
  /** A device version's sizes, for device fit and coverage. */
  sizes?: readonly SizeWindow[];
  /** A sizing proposal on one parameter (seed percentile default 50, target coverage default 50 %). */
  sizing?: { parameter: number; seedPercentile?: number; targetCoveragePercent?: number };
}

/** Per-parameter results. */
export interface ParameterAnalysis {
  summary: ParameterSummary;
  percentiles: PercentileResult;
  outliers: TukeyOutliers;
  /** Null when the parameter is constant (no spread, so no density to draw). */
  density: DensityCurve | null;
}

/** The whole population analysis. */
export interface PopulationAnalysis {
  patients: number;
  parameters: ParameterAnalysis[];
  pearson: CorrelationMatrix;
  spearman: CorrelationMatrix;
  flaggedPearson: CorrelatedPair[];
  flaggedSpearman: CorrelatedPair[];
  /** Null when there are too few patients for the parameters (n ≤ p) or the covariance is singular. */
  mahalanobis: MahalanobisOutliers | null;
  extremeCases: ExtremeCaseResult;
  coverage: DeviceCoverage | null;
  sizing: SizingProposal | null;
}

/**
 * Runs the whole population analysis of spec §2/§5 on a patients × parameters matrix: per-parameter
 * summary, percentiles, Tukey outliers and Gaussian KDE; Pearson and Spearman matrices with p-values and
 * flagged pairs; Mahalanobis outliers; up to five extreme cases; device coverage and a sizing proposal.
 * Each part's method and reference is on its own function. Exclude patients first with `withoutRows`.
 * @throws InsufficientPatientsError below 20 patients (spec §5).
 */
export function analysePopulation(matrix: PopulationMatrix, settings: AnalysisSettings = {}): PopulationAnalysis {
  const { rows: n, cols: p, data } = matrix;
  assertEnoughPatients(n);
  const alpha = settings.alpha ?? ANALYSIS_DEFAULTS.alpha;
  const flagOptions = { threshold: settings.correlationThreshold ?? ANALYSIS_DEFAULTS.correlationThreshold, alpha };

  // Each parameter is sorted once, for its summary, percentiles, fences, density and Spearman ranks.
  const parameters: ParameterAnalysis[] = [];
  const sorted = new Float64Array(n);
  const ranks = new Float64Array(n * p);
  for (let j = 0; j < p; j++) {
    const values = data.subarray(j * n, (j + 1) * n);
    sortAndRank(values, sorted, ranks.subarray(j * n, (j + 1) * n));
    parameters.push({
      summary: summariseSorted(sorted),
      percentiles: percentilesOfSorted(sorted, settings.percentiles ?? ANALYSIS_DEFAULTS.percentiles),
      outliers: tukeyOutliers(values, settings.tukeyK ?? ANALYSIS_DEFAULTS.tukeyK, sorted),
      density:
        (sorted[n - 1] as number) > (sorted[0] as number)
          ? kernelDensityOfSorted(sorted, {
              bandwidth: settings.bandwidth ?? 'scott',
              points: settings.densityPoints ?? ANALYSIS_DEFAULTS.densityPoints,
            })
          : null,
    });
  }

  // Pearson and Mahalanobis share the centred columns and their cross products.
  const centred = new Float64Array(data.length);
  const cross = centredCrossProducts(data, n, p, centred);
  const r = correlationFromCrossProducts(cross, p);
  const pearson: CorrelationMatrix = { method: 'pearson', size: p, n, r, p: correlationPValues(r, p, n) };
  const spearman = spearmanFromRanks(ranks, n, p);

  let mahalanobis: MahalanobisOutliers | null = null;
  if (n > p) {
    try {
      mahalanobis = mahalanobisFromCentred(centred, cross, n, p, alpha);
    } catch {
      mahalanobis = null; // singular covariance: a constant or collinear parameter
    }
  }

  if (settings.sizing && !(settings.sizing.parameter >= 0 && settings.sizing.parameter < p)) {
    throw new StatsInputError('The sizing proposal refers to a missing parameter.');
  }
  const sizing = settings.sizing
    ? proposeSizingWindow(
        data.subarray(settings.sizing.parameter * n, (settings.sizing.parameter + 1) * n),
        settings.sizing,
      )
    : null;

  return {
    patients: n,
    parameters,
    pearson,
    spearman,
    flaggedPearson: flagCorrelatedPairs(pearson, flagOptions),
    flaggedSpearman: flagCorrelatedPairs(spearman, flagOptions),
    mahalanobis,
    extremeCases: parameters.some((q) => q.summary.max > q.summary.min)
      ? extremeCases(matrix, {
          count: Math.min(settings.extremeCases ?? ANALYSIS_DEFAULTS.extremeCases, n),
          seed: settings.seed ?? 1,
        })
      : { cases: [], components: 0, explainedVariance: 0, assignments: new Int32Array(n), iterations: 0 },
    coverage: settings.sizes ? deviceCoverage(matrix, settings.sizes) : null,
    sizing,
  };
}
