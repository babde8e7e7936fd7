import type { TrialDetail } from '@insilico/contracts';

export interface ComparedPatient {
  patientId: string;
  base: number | null;
  current: number | null;
  /** current − base, when both have a value. */
  difference: number | null;
}

/**
 * One outcome of a trial and the trial it re-runs, per patient of the current trial (device CI): the two values and
 * their difference, and the mean difference over the patients with both values (null when none has).
 */
export function compareOutcome(
  base: Pick<TrialDetail, 'patients'>,
  current: Pick<TrialDetail, 'patients'>,
  outcome: string,
): { patients: ComparedPatient[]; meanDifference: number | null; paired: number } {
  const before = new Map(base.patients.map((p) => [p.patientId, p.outcomes?.[outcome] ?? null]));
  const patients = current.patients.map((p) => {
    const a = before.get(p.patientId) ?? null;
    const b = p.outcomes?.[outcome] ?? null;
    return { patientId: p.patientId, base: a, current: b, difference: a !== null && b !== null ? b - a : null };
  });
  const paired = patients.flatMap((p) => (p.difference === null ? [] : [p.difference]));
  return {
    patients,
    meanDifference: paired.length ? paired.reduce((s, d) => s + d, 0) / paired.length : null,
    paired: paired.length,
  };
}
