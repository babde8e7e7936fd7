import type { MeshPhaseInput } from '@insilico/anatomy';
import { readStl } from '@insilico/mesh';
import {
  buildScenario,
  RESOLUTIONS,
  ScenarioError,
  type BuiltScenario,
  type Estimate,
  type ParameterIssue,
  type PlacementTransform,
  type Resolution,
  type ScenarioPatient,
  type SimulationKind,
} from '@insilico/scenarios';
import { cpuTask } from './task';

/** A room as the scenario builder needs it, with the device's STL files as bytes (parsed in the thread). */
export interface ScenarioTaskInput {
  /** A virtual patient at `phase`, or a patient of the user's own imaging (its delivered surface; `phase` null). */
  patient: ScenarioPatient;
  phase: MeshPhaseInput | null;
  kind: SimulationKind;
  /** One resolution to build, or null for the estimates of every resolution (the set-up). */
  resolution: Resolution | null;
  parameters: Record<string, unknown>;
  devices: { name: string; transform: PlacementTransform; stl: Uint8Array[] }[];
}

/** What the builder made of it: the case (or the estimates), or the issues a person must correct. */
export type ScenarioTaskOutput =
  | { ok: true; built: BuiltScenario | null; estimates: (Estimate & { resolution: Resolution })[] }
  | { ok: false; issues: ParameterIssue[] };

/**
 * Builds a case (or estimates every resolution) in a CPU-pool thread: the patient's meshes, the device's placement
 * and the STL bytes cost up to seconds, which must not hold the event loop. Refusals come back as issues (an error
 * crossing the thread boundary would lose them).
 */
export function buildScenarioInThread(input: ScenarioTaskInput): ScenarioTaskOutput {
  const devices = input.devices.map((d) => ({
    name: d.name,
    transform: d.transform,
    meshes: d.stl.map((bytes) => readStl(bytes)),
  }));
  const room = { patient: input.patient, phase: input.phase, kind: input.kind, parameters: input.parameters, devices };
  try {
    if (input.resolution !== null) {
      return { ok: true, built: buildScenario({ ...room, resolution: input.resolution }), estimates: [] };
    }
    const estimates: (Estimate & { resolution: Resolution })[] = [];
    const issues: ParameterIssue[] = [];
    for (const resolution of RESOLUTIONS.filter((r) => r !== 'test')) {
      try {
        estimates.push({ resolution, ...buildScenario({ ...room, resolution }).estimate });
      } catch (error) {
        // A resolution over the particle cap is left out; its message tells the set-up why.
        if (!(error instanceof ScenarioError) || error.issues.some((i) => i.key !== 'resolution')) throw error;
        issues.push(...error.issues);
      }
    }
    return estimates.length ? { ok: true, built: null, estimates } : { ok: false, issues };
  } catch (error) {
    if (error instanceof ScenarioError) return { ok: false, issues: [...error.issues] };
    throw error;
  }
}

export const scenarioTask = cpuTask(import.meta.url, 'buildScenarioInThread', buildScenarioInThread);
