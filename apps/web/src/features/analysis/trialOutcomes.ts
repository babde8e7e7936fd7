import {
  keysInUse,
  trialOutcomeParameterPattern,
  type AnalysisSettings,
  type CohortParameterTable,
  type TrialOutcomeColumns,
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

/** A patient's completed run in a trial whose outcomes the analysis uses: the room and simulation to open. */
export interface TrialRun {
  trialName: string;
  roomId: string;
  simulationId: string;
}

/**
 * Per patient, the completed runs of the trials with an outcome among `parameters` (the analysed ones), in the
 * trials' order: the extreme cases open them ("Open room on the patient's simulation", issue 17).
 */
export function trialRunsOf(
  trials: readonly TrialOutcomeColumns[],
  parameters: readonly string[],
): ReadonlyMap<string, TrialRun[]> {
  const used = new Set(parameters);
  const runs = new Map<string, TrialRun[]>();
  for (const trial of trials) {
    if (!trial.outcomes.some((o) => used.has(o.parameter))) continue;
    trial.ids.forEach((id, i) => {
      const run = trial.runs[i];
      if (run) runs.set(id, [...(runs.get(id) ?? []), { trialName: trial.trialName, ...run }]);
    });
  }
  return runs;
}
