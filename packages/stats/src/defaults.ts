/**
 * The analysis defaults of spec §9: correlation threshold 0.9, alpha 0.001,
 * percentiles 5/50/95, target coverage 50 %, seed percentile 50.
 */
export const ANALYSIS_DEFAULTS = {
  /** |r| at or above which a pair is flagged (dimensionless). */
  correlationThreshold: 0.9,
  /** Significance level for correlation p-values and the Mahalanobis χ² cut-off. */
  alpha: 0.001,
  /** Percentiles reported per parameter, in percent. */
  percentiles: [5, 50, 95] as readonly number[],
  /** Coverage a sizing proposal aims for, in percent of patients. */
  targetCoveragePercent: 50,
  /** Percentile where a sizing proposal starts, in percent. */
  seedPercentile: 50,
  /** Up to five multidimensional extreme cases (spec §9). */
  extremeCases: 5,
  /** Tukey fence multiplier k (Q1 − k·IQR, Q3 + k·IQR). */
  tukeyK: 1.5,
  /** Number of grid points of the PDF graph. */
  densityPoints: 256,
} as const;

/** Percentiles below this many values come from a fitted normal distribution (spec §9). */
export const RAW_PERCENTILE_MIN_VALUES = 20;
