import { sameComputation } from './trial-custom-outcomes';
import { meetsCriterion, type TrialCriterion, type TrialDetail } from './trials';

/**
 * Device CI's comparison of a trial with the trial it re-runs (issue 17 item 4): per patient, per outcome, and the
 * verdict changes under an acceptance criterion. The trial page draws it; the server keeps it with a re-run's results
 * (the design history's evidence). Only each patient's id and outcomes are read.
 */
export interface ComparedTrial {
  readonly patients: readonly {
    readonly patientId: string;
    readonly outcomes: Readonly<Record<string, number | null>> | null;
  }[];
}

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
  base: ComparedTrial,
  current: ComparedTrial,
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

/** A patient whose verdict under the acceptance criterion changed between the two versions. */
export interface VerdictChange {
  patientId: string;
  base: number;
  current: number;
  change: 'pass → fail' | 'fail → pass';
}

/**
 * Device CI's regressions: the patients with a value on both versions whose verdict under the criterion differs,
 * those that passed before and fail now first (then the reverse), each in the trial's patient order.
 */
export function verdictChanges(
  base: ComparedTrial,
  current: ComparedTrial,
  outcome: string,
  criterion: TrialCriterion | undefined,
): VerdictChange[] {
  if (!criterion) return [];
  const changes = compareOutcome(base, current, outcome).patients.flatMap((p) => {
    const before = meetsCriterion(p.base, criterion);
    const now = meetsCriterion(p.current, criterion);
    if (before === null || now === null || before === now) return [];
    return [
      {
        patientId: p.patientId,
        base: p.base!,
        current: p.current!,
        change: before ? ('pass → fail' as const) : ('fail → pass' as const),
      },
    ];
  });
  return [...changes.filter((c) => c.change === 'pass → fail'), ...changes.filter((c) => c.change === 'fail → pass')];
}

/** The values of one outcome over a trial's patients that have one (the distribution plot's data). */
export function outcomeValues(trial: ComparedTrial, outcome: string): number[] {
  return trial.patients.flatMap((p) => {
    const v = p.outcomes?.[outcome];
    return v !== null && v !== undefined && Number.isFinite(v) ? [v] : [];
  });
}

/**
 * The outcomes a re-run can be compared on with the trial it re-runs: the kind's, and each outcome of the user's own
 * both trials have under one key computed the same way (either may have been changed after the re-run: a value of
 * another definition is not a difference the device made). `differing`: the labels of those left out.
 */
export function comparableOutcomes(
  base: Pick<TrialDetail, 'outcomes' | 'customOutcomes'>,
  current: Pick<TrialDetail, 'outcomes' | 'customOutcomes'>,
): { outcomes: TrialDetail['outcomes']; differing: string[] } {
  const baseKeys = new Set(base.outcomes.map((o) => o.key));
  const differing: string[] = [];
  const outcomes = current.outcomes.filter((o) => {
    const mine = current.customOutcomes.find((c) => c.key === o.key);
    if (!mine) return baseKeys.has(o.key);
    const theirs = base.customOutcomes.find((c) => c.key === o.key);
    const same = theirs !== undefined && sameComputation(theirs.definition, mine.definition);
    if (!same) differing.push(o.label);
    return same;
  });
  return { outcomes, differing };
}
