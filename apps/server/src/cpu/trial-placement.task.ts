import type { MeshPhaseInput, SyntheticPatient } from '@insilico/anatomy';
import {
  placeByRule,
  placeDeliveredByRule,
  type DeliveredPatient,
  type PlacementRule,
  type RulePlacement,
} from '@insilico/scenarios';
import { cpuTask } from './task';

/**
 * A trial patient's placement by rule in a CPU-pool thread: the patient's meshes and the annulus measurement take
 * tens to hundreds of ms, which must not hold the event loop.
 */
export function placeByRuleInThread(input: {
  patient: SyntheticPatient;
  phase: MeshPhaseInput;
  rule: PlacementRule;
}): RulePlacement {
  return placeByRule(input.patient, input.phase, input.rule);
}

export const trialPlacementTask = cpuTask(import.meta.url, 'placeByRuleInThread', placeByRuleInThread);

/** The rule on a shape of an SSM (its aortic root surface and landmarks): the section measurement is not free either. */
export function placeDeliveredByRuleInThread(input: { patient: DeliveredPatient; rule: PlacementRule }): RulePlacement {
  return placeDeliveredByRule(input.patient, input.rule);
}

export const trialDeliveredPlacementTask = cpuTask(
  import.meta.url,
  'placeDeliveredByRuleInThread',
  placeDeliveredByRuleInThread,
);
