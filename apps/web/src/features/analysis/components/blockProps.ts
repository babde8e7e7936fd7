import type { AnalysisParameter, CohortParameterTable } from '@insilico/contracts';
import type { AnalysisDraft } from '../analysisState';
import type { AnalysisOutcome } from '../worker/analysisProtocol';

/** What every block of the analysis page reads. */
export interface BlockProps {
  outcome: AnalysisOutcome;
  table: CohortParameterTable;
  draft: AnalysisDraft;
  /** Parameter details by key. */
  parameterOf: ReadonlyMap<string, AnalysisParameter>;
  /** May change the analysis (exclude patients, edit settings). */
  canEdit: boolean;
  exclude: (patientIds: string[]) => void;
}

/** The patient id of an analysed row (rows of the result skip excluded patients). */
export function patientAt(outcome: AnalysisOutcome, table: CohortParameterTable, analysedRow: number): string {
  return table.patients[outcome.rows[analysedRow] ?? -1] ?? '';
}
