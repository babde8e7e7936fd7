export { analysePopulation, type AnalysisSettings, type ParameterAnalysis, type PopulationAnalysis } from './analysis';
export {
  runAnalysisJob,
  type AnalysisJob,
  type AnalysisJobSettings,
  type AnalysisOutcome,
  type FitCoverage,
} from './analysisJob';
export {
  averageRanks,
  correlationPValue,
  flagCorrelatedPairs,
  pearsonMatrix,
  spearmanMatrix,
  type CorrelatedPair,
  type CorrelationFlagOptions,
  type CorrelationMatrix,
} from './correlation';
export {
  deviceCoverage,
  sizingDisagreement,
  proposeSizeSet,
  proposeSizingWindow,
  wilsonInterval,
  type DeviceCoverage,
  type SizingDisagreement,
  type ParameterRange,
  type Proportion,
  type SizeSetProposal,
  type SizeWindow,
  type SizingProposal,
} from './coverage';
export { ANALYSIS_DEFAULTS, RAW_PERCENTILE_MIN_VALUES } from './defaults';
export {
  bandwidthFactor,
  kernelDensity,
  kernelDensityOfSorted,
  type BandwidthRule,
  type DensityCurve,
  type DensityOptions,
} from './density';
export { assertEnoughPatients, InsufficientPatientsError, MIN_PATIENTS, StatsInputError } from './errors';
export { extremeCases, type ExtremeCase, type ExtremeCaseOptions, type ExtremeCaseResult } from './extremeCases';
export { gramMatrix } from './gram';
export { choleskyInPlace, symmetricEigen, type SymmetricEigen } from './linalg';
export { column, matrixFromColumns, matrixFromRows, withoutRows, type PopulationMatrix } from './matrix';
export { mahalanobisOutliers, tukeyOutliers, type MahalanobisOutliers, type TukeyOutliers } from './outliers';
export {
  clampPercentile,
  percentiles,
  percentilesOfSorted,
  type PercentileResult,
  type PercentileValue,
} from './percentiles';
export { percentileOfSorted, sortedFinite } from './quantile';
export { mulberry32 } from './random';
export { summarise, summariseSorted, type ParameterSummary } from './summary';
export {
  KS_EXACT_LIMIT,
  covarianceOf,
  energyTest,
  kolmogorovSurvival,
  ksExactOutside,
  ksTwoSample,
  mahalanobisQq,
  rangeCovered,
  type EnergyTest,
  type KsTest,
  type MahalanobisQq,
  type RangeCovered,
} from './representativeness';
