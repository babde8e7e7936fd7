import { buildPatientMeshes, type SyntheticPatient } from '@insilico/anatomy';
import type { MeasurementDefinition, MeasurementPhase } from './definitions';
import { PatientMeasurer, type LandmarkCorrections, type MeasurementOutcome } from './evaluate';

/** A patient's outcomes, in the order of the definitions. */
export interface PatientMeasurements {
  readonly patientId: string;
  readonly outcomes: readonly MeasurementOutcome[];
}

/** Whether the patient has images of a phase (cine CT covers both). */
export function hasImagesOf(patient: SyntheticPatient, phase: MeasurementPhase): boolean {
  return patient.phases.includes(phase) || patient.phases.includes('cine_ct');
}

/**
 * Measures every definition on one patient: the meshes of each phase the definitions use are built once (pure,
 * deterministic: the same patient gives the same values), corrections per phase replace landmarks. A phase the
 * patient has no images of is not measured (a reader could not): those outcomes say so.
 */
export function measurePatient(
  patient: SyntheticPatient,
  definitions: readonly MeasurementDefinition[],
  corrections: Partial<Record<MeasurementPhase, LandmarkCorrections>> = {},
): PatientMeasurements {
  const measurers = new Map<MeasurementPhase, PatientMeasurer>();
  const outcomes = definitions.map((definition): MeasurementOutcome => {
    if (!hasImagesOf(patient, definition.phase)) return { failure: `This patient has no ${definition.phase} images.` };
    let measurer = measurers.get(definition.phase);
    if (measurer === undefined) {
      measurer = new PatientMeasurer(buildPatientMeshes(patient, definition.phase), corrections[definition.phase]);
      measurers.set(definition.phase, measurer);
    }
    return measurer.measure(definition);
  });
  return { patientId: patient.id, outcomes };
}
