import {
  comparableOutcomes,
  compareOutcome,
  verdictChanges,
  type ComparedTrial,
  type TrialAcceptance,
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

/**
 * Device CI's comparison of a finished re-run with the trial it re-runs (issue 17 item 4), kept with the re-run's
 * results and in its `trial.finished` event (the design history's evidence): the earlier trial and its device version,
 * then per outcome both trials compute the same way (`comparableOutcomes`, as the trial page) the patients with a value
 * on both, the mean difference (this version − the earlier), and under the re-run's acceptance criterion the patients
 * that changed from pass to fail and from fail to pass. The user outcomes left out (changed definitions) by label.
 */
export function trialComparison(base: ComparedTrialRows, current: ComparedTrialRows): Record<string, unknown> {
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
      const { paired, meanDifference } = compareOutcome(before, now, key);
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
      };
    }),
    leftOut: differing,
  };
}
