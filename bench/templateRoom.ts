// The room the simulation-template benches build from: a synthetic patient (seed, index) at end-diastole with a ring
// device (0.8 and 0.12 of the annulus radius) placed 4 mm above its annulus.
import { generatePatient } from '../packages/anatomy/src/index';
import {
  annulusPlacement,
  buildScenario,
  ringDeviceMesh,
  simulatedRegion,
  type Resolution,
  type SimulationKind,
} from '../packages/scenarios/src/index';

export function templateRoom(seed: number, index: number) {
  const patient = generatePatient(seed, index);
  const region = simulatedRegion(patient, 'end-diastole');
  const radius = patient.cardiac.aorticAnnulusDiameter_mm / 2;
  const device = {
    name: 'Ring v1',
    transform: annulusPlacement(region, 4),
    meshes: [ringDeviceMesh(0.8 * radius, 0.12 * radius)],
  };
  return { patient, region, device };
}

/** The template of `kind` in `templateRoom(seed, index)` at `resolution`, built as the server builds it. */
export function templateCase(seed: number, index: number, kind: SimulationKind, resolution: Resolution = 'coarse') {
  const { patient, device } = templateRoom(seed, index);
  return buildScenario({
    patient,
    phase: 'end-diastole',
    kind,
    resolution,
    parameters: {},
    devices: [device],
  });
}

/** The fluid template of `templateRoom(seed, index)` at `resolution`, built as the server builds it. */
export function templateFluidCase(seed: number, index: number, resolution: Resolution = 'coarse') {
  return templateCase(seed, index, 'fluid', resolution);
}
