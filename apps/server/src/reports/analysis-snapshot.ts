import { InsufficientPatientsError, StatsInputError } from '@insilico/stats';
import { hashedContent } from '../services/result-snapshots';
import { leftOutRows, runReportAnalysis, type AnalysisReportInput } from './analysis-report';

/** What an analysis' results snapshot is made of: the analysis as the server runs it, or why it cannot run. */
export interface AnalysisSnapshotInput {
  codeVersion: string;
  analysisId: string;
  revision: number;
  cohort: { id: string; name: string; modelVersion: string };
  /** The analysis as saved (its name, parameters, settings and exclusions). */
  saved: { name: string; parameters: readonly string[]; settings: unknown; excluded: readonly string[] };
  /** The analysis ready to run; null when it cannot be analysed (`refusal` says why). */
  prepared: Pick<AnalysisReportInput, 'analysis' | 'table' | 'measurements'> | null;
  refusal: string | null;
}

/** The snapshot as kept: its content and the SHA-256 of the content's canonical JSON. */
export interface AnalysisSnapshotContent {
  content: Record<string, unknown>;
  contentHash: string;
}

/**
 * The results of an analysis as they are now (issue 20 item 7): the population analysis of the analysed patients
 * (summaries, percentiles, densities, correlations, outliers, extreme cases, sizing), the device fits' coverage, the
 * size-set proposal, the patients left out, the measurements read and the code version. An analysis that cannot run
 * (fewer than 20 patients, no parameter left) is kept with the reason as its result.
 */
export function analysisSnapshot(input: AnalysisSnapshotInput): AnalysisSnapshotContent {
  let results: unknown = null;
  let refusal = input.refusal;
  let leftOut: { excluded: string[]; withoutValue: string[] } | null = null;
  if (input.prepared) {
    const { table } = input.prepared;
    const rows = leftOutRows(input.prepared);
    leftOut = {
      excluded: rows.excluded.map((row) => table.patients[row]!),
      withoutValue: rows.withoutValue.map((row) => table.patients[row]!),
    };
    try {
      const outcome = runReportAnalysis(input.prepared);
      results = { ...outcome, patients: outcome.rows.map((row) => table.patients[row]!) };
    } catch (error) {
      if (!(error instanceof InsufficientPatientsError || error instanceof StatsInputError)) throw error;
      refusal = error.message;
    }
  }
  return hashedContent({
    kind: 'population-analysis-results',
    codeVersion: input.codeVersion,
    analysis: {
      id: input.analysisId,
      revision: input.revision,
      cohortId: input.cohort.id,
      ...input.saved,
      analysedParameters: input.prepared?.analysis.parameters ?? [],
      droppedParameters: input.prepared?.analysis.droppedParameters ?? [],
    },
    cohort: {
      ...input.cohort,
      patients: input.prepared?.table.patients.length ?? null,
      synthetic: input.prepared?.table.synthetic ?? null,
    },
    measurements: input.prepared?.measurements ?? [],
    leftOut,
    refusal,
    results,
  });
}
