import { customOutcomeDefinition, placementRuleText, type TrialDetail } from '@insilico/contracts';
import { toCsv } from '@insilico/contracts/csv';

/**
 * A trial's patients and outcomes as CSV (the trial page's table, for a spreadsheet): one row per patient with its
 * status, the stage and reason of a failure, the placement rule it was placed (or refused) by — a retry with a corrected
 * rule leaves patients placed by different rules, so the trial's rule now would misstate the others — every outcome now with its unit in the header (a changed outcome of the
 * user's own names its version), then the values of earlier versions of the user's outcomes, changed or removed,
 * each in its own column (`…, version 1 (earlier)`): the values evidence may have used stay with the trial. Numbers in
 * full precision; an empty cell where a patient has no value (`@insilico/contracts/csv`, with its formula guard).
 * A trial on an SSM's named instances names each by the instance and its shape (`mean`, `2,0,-1.5`) instead.
 */
export function trialOutcomesCsv(trial: TrialDetail): string {
  const version = new Map(trial.customOutcomes.map((o) => [o.key, o.version]));
  const earlier = trial.customOutcomeHistory.filter((v) => v.until !== null);
  const onSsm = Boolean(trial.ssm);
  const header = [
    ...(onSsm ? ['Instance', 'Shape'] : ['Patient']),
    'Status',
    'Failed at',
    'Reason',
    'Placement rule',
    ...trial.outcomes.map((o) => {
      const v = version.get(o.key) ?? 1;
      return `${o.label} (${o.unit})${v > 1 ? `, version ${v}` : ''}`;
    }),
    ...earlier.map((v) => {
      const unit = customOutcomeDefinition(trial.kind, v.definition, v.key).unit;
      return `${v.definition.label} (${unit}), version ${v.version} (earlier)`;
    }),
  ];
  const rows = trial.patients.map((p) => {
    const kept = new Map(p.earlierOutcomes.map((e) => [`${e.key}@${e.version}`, e.value]));
    return [
      ...(onSsm ? [p.instance?.name ?? p.patientId, p.instance?.shape ?? null] : [p.patientId]),
      p.status,
      p.stage,
      p.error,
      p.placement ? placementRuleText(p.placement) : null,
      ...trial.outcomes.map((o) => p.outcomes?.[o.key] ?? null),
      ...earlier.map((v) => kept.get(`${v.key}@${v.version}`) ?? null),
    ];
  });
  return toCsv([header, ...rows]);
}
