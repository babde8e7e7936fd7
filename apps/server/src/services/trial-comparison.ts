import {
  comparableOutcomes,
  compareOutcome,
  verdictChanges,
  type ComparedPatient,
  type ComparedTrial,
  type TrialAcceptance,
  type TrialCriterion,
} from '@insilico/contracts';
import type { TrialPatientWithRun, TrialRow } from '../repositories/trial.repository';
import { currentOutcomeValues, storedCustomOutcomes, trialOutcomesOf } from './trial-custom-outcomes';

/** A trial with its patients, as the comparison reads them. */
export interface ComparedTrialRows {
  trial: TrialRow;
  patients: readonly TrialPatientWithRun[];
}

/** Each patient's outcomes as they stand now (user outcomes of another definition version are not current). */
function compared({ trial, patients }: ComparedTrialRows): ComparedTrial {
  const custom = storedCustomOutcomes(trial);
  return {
    patients: patients.map(({ patient }) => ({
      patientId: patient.patientId,
      outcomes: currentOutcomeValues(custom, patient).values,
    })),
  };
}

/** One outcome of device CI's comparison: per patient of the re-run its two values and their difference. */
export interface OutcomeComparison {
  key: string;
  label: string;
  unit: string;
  /** Patients with a value on both versions. */
  paired: number;
  /** Mean of (this version − the earlier) over the paired patients; null when none is. */
  meanDifference: number | null;
  criterion: TrialCriterion | null;
  passToFail: string[];
  failToPass: string[];
  patients: ComparedPatient[];
}

/** Device CI's comparison of a re-run with the trial it re-runs, every figure from contracts' trial-compare. */
export interface TrialComparison {
  basedOn: { trialId: string; name: string; deviceVersionId: string | null; deviceVersionName: string };
  outcomes: OutcomeComparison[];
  /** The labels of the user outcomes left out (their definitions differ between the two trials). */
  leftOut: string[];
}

/**
 * Device CI's comparison of a re-run with the trial it re-runs (issue 17 item 4): the earlier trial and its device
 * version, then per outcome both trials compute the same way (`comparableOutcomes`, as the trial page) each patient's
 * two values and difference (`compareOutcome`), the patients with a value on both, the mean difference (this version
 * − the earlier), and under the re-run's acceptance criterion the patients that changed from pass to fail and from
 * fail to pass (`verdictChanges`). The trial report draws it.
 */
export function compareTrials(base: ComparedTrialRows, current: ComparedTrialRows): TrialComparison {
  const before = compared(base);
  const now = compared(current);
  const definitions = (t: TrialRow) => ({ outcomes: trialOutcomesOf(t), customOutcomes: storedCustomOutcomes(t) });
  const { outcomes, differing } = comparableOutcomes(definitions(base.trial), definitions(current.trial));
  const acceptance = current.trial.acceptance as TrialAcceptance;
  return {
    basedOn: {
      trialId: base.trial.id,
      name: base.trial.name,
      deviceVersionId: base.trial.deviceVersionId,
      deviceVersionName: base.trial.deviceVersionName,
    },
    outcomes: outcomes.map(({ key, label, unit }) => {
      const { patients, paired, meanDifference } = compareOutcome(before, now, key);
      const criterion = acceptance[key];
      const changes = verdictChanges(before, now, key, criterion);
      return {
        key,
        label,
        unit,
        paired,
        meanDifference,
        criterion: criterion ?? null,
        passToFail: changes.filter((c) => c.change === 'pass → fail').map((c) => c.patientId),
        failToPass: changes.filter((c) => c.change === 'fail → pass').map((c) => c.patientId),
        patients,
      };
    }),
    leftOut: differing,
  };
}

/**
 * The comparison as kept with a finished re-run's results and in its `trial.finished` event (the design history's
 * evidence): `compareTrials` without the per-patient values (the two trials' own results hold those).
 */
export function trialComparison(base: ComparedTrialRows, current: ComparedTrialRows): Record<string, unknown> {
  const { basedOn, outcomes, leftOut } = compareTrials(base, current);
  return { basedOn, outcomes: outcomes.map(({ patients: _perPatient, ...outcome }) => outcome), leftOut };
}
