import {
  keysInUse,
  trialOutcomeParameterPattern,
  type AnalysisSettings,
  type CohortParameterTable,
} from '@insilico/contracts';

/** The trial outcome columns of the page's table (shared with the server's analysis report, in contracts). */
export { keysInUse, rowsWithoutValues, withTrialOutcomes } from '@insilico/contracts';

/**
 * The trial outcomes in use that the table lacks: their trial was deleted since the analysis was saved. The page
 * saves the analysis again at once so the server takes them out (docs/decisions/trials.md).
 */
export function goneOutcomesInUse(
  table: CohortParameterTable,
  parameters: readonly string[],
  settings: AnalysisSettings,
): string[] {
  const keys = new Set(table.parameters.map((p) => p.key));
  return keysInUse(parameters, settings).filter((key) => trialOutcomeParameterPattern.test(key) && !keys.has(key));
}
