import { analysisSnapshot } from '../reports/analysis-snapshot';
import { cpuTask } from './task';

/** The thread imports this module and runs this export. */
export { analysisSnapshot };

/**
 * An analysis' results snapshot in a CPU-pool thread: the whole population analysis of the cohort (KDEs,
 * correlation matrices, Mahalanobis distances) and its hash take from tens of ms to seconds on large cohorts.
 */
export const analysisSnapshotTask = cpuTask(import.meta.url, 'analysisSnapshot', analysisSnapshot);
