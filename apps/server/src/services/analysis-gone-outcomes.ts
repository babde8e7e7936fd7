import {
  analysisKeysInUse,
  trialOutcomeDefinitions,
  trialOutcomeParameterPattern,
  withoutAnalysisParameters,
  type AnalysisParameterUse,
  type AnalysisSettings,
  type DroppedAnalysisParameter,
} from '@insilico/contracts';

const outcomeLabels = new Map<string, string>(
  Object.values(trialOutcomeDefinitions).flatMap((definitions) => definitions.map((d) => [d.key, d.label] as const)),
);

/**
 * A save of an analysis that still carries outcomes of a trial deleted since (issue 17): those keys are taken out
 * rather than the save refused. Only keys the stored analysis already had are taken out — the trial was there when
 * they were saved, so it is gone now; a key the caller adds is checked as any other (unknown: 422). The analysis's
 * earlier events and any evidence made from it keep the keys as they were (docs/decisions/trials.md).
 *
 * `known` is every outcome parameter of the project's trials on the analysis's cohort now.
 */
export function dropGoneTrialOutcomes(
  stored: AnalysisParameterUse,
  next: AnalysisParameterUse,
  known: ReadonlySet<string>,
): { parameters: string[]; settings: AnalysisSettings; dropped: DroppedAnalysisParameter[] } {
  const storedKeys = new Set(analysisKeysInUse(stored));
  const trialsNow = new Set([...known].map((key) => trialOutcomeParameterPattern.exec(key)?.[1]));
  const gone = analysisKeysInUse(next).flatMap((key) => {
    const match = trialOutcomeParameterPattern.exec(key);
    return match && storedKeys.has(key) && !known.has(key) ? [{ key, trialId: match[1], outcome: match[2]! }] : [];
  });
  if (gone.length === 0) return { parameters: [...next.parameters], settings: next.settings, dropped: [] };
  const { parameters, settings, removedFrom } = withoutAnalysisParameters(
    next,
    gone.map((g) => g.key),
  );
  const dropped = gone.map(({ key, trialId, outcome }) => ({
    parameter: key,
    label: outcomeLabels.get(outcome) ?? outcome,
    reason: trialsNow.has(trialId)
      ? 'Its trial no longer has this outcome.'
      : 'Its trial was deleted, so its outcomes are no longer available.',
    removedFrom: removedFrom.get(key) ?? [],
  }));
  return { parameters, settings, dropped };
}
