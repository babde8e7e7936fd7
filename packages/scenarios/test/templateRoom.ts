import { generatePatient } from '@insilico/anatomy';
import {
  annulusPlacement,
  buildScenario,
  ringDeviceMesh,
  simulatedRegion,
  type BuiltScenario,
  type Resolution,
} from '../src/index';

/**
 * The fluid template of synthetic patient `index` (seed 20261125) at end-diastole with the benches' ring (0.8 and 0.12
 * of the annulus radius) placed 4 mm above its annulus, built as the server builds it (bench/templateRoom.ts's room).
 */
export function templateFluid(index: number, resolution: Resolution): BuiltScenario {
  const patient = generatePatient(20261125, index);
  const region = simulatedRegion(patient, 'end-diastole');
  const radius = patient.cardiac.aorticAnnulusDiameter_mm / 2;
  return buildScenario({
    patient,
    phase: 'end-diastole',
    kind: 'fluid',
    resolution,
    parameters: {},
    devices: [
      {
        name: 'Ring v1',
        transform: annulusPlacement(region, 4),
        meshes: [ringDeviceMesh(0.8 * radius, 0.12 * radius)],
      },
    ],
  });
}
