import type { MeshPhaseInput, SyntheticPatient } from '@insilico/anatomy';
import {
  placeByRule,
  placeDeliveredByRule,
  simulatedRegion,
  type DeliveredPatient,
  type PlacementRule,
  type RulePlacement,
} from '@insilico/scenarios';
import { withinSimulatedAnatomy } from '../services/trial-placement-reach';
import { cpuTask } from './task';

/**
 * A trial patient's placement by rule in a CPU-pool thread: the patient's meshes and the annulus measurement take
 * tens to hundreds of ms, which must not hold the event loop. A centre outside the simulated anatomy is refused here,
 * in the trial's words, rather than at set-up.
 */
export function placeByRuleInThread(input: {
  patient: SyntheticPatient;
  phase: MeshPhaseInput;
  rule: PlacementRule;
}): RulePlacement {
  return withinSimulatedAnatomy(placeByRule(input.patient, input.phase, input.rule), input.rule, () =>
    simulatedRegion(input.patient, input.phase),
  );
}

export const trialPlacementTask = cpuTask(import.meta.url, 'placeByRuleInThread', placeByRuleInThread);

/** The rule on a delivered surface (an SSM's shape, an imaging patient's root): the section measurement is not free either. */
export function placeDeliveredByRuleInThread(input: { patient: DeliveredPatient; rule: PlacementRule }): RulePlacement {
  return withinSimulatedAnatomy(placeDeliveredByRule(input.patient, input.rule), input.rule, () =>
    simulatedRegion(input.patient, null),
  );
}

export const trialDeliveredPlacementTask = cpuTask(
  import.meta.url,
  'placeDeliveredByRuleInThread',
  placeDeliveredByRuleInThread,
);
