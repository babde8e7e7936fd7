import type { Sex, SyntheticPatient } from '@insilico/anatomy';
import type { TriangleMesh, Vec3 } from '@insilico/mesh';

/**
 * A patient of the user's own imaging (issue 19): the closed surfaces and landmarks support staff delivered, of one
 * phase. Nothing else is known of it (de-identification removed sex, age and size); what the builder needs of a
 * virtual patient's parameters is measured on the surfaces instead (region.ts).
 */
export interface DeliveredPatient {
  /** The user's own imaging, or a shape of a statistical shape model (issue 18: its surface and landmarks). */
  readonly source: 'imaging' | 'ssm';
  readonly id: string;
  /** The delivered phase the surfaces are of (`end-diastole`, `systole`, …). */
  readonly phase: string;
  /**
   * The closed surface of the LVOT, aortic root and ascending aorta at that phase, mm (the images' patient frame);
   * null when none was delivered for the phase (the builder says so).
   */
  readonly aorticRoot: TriangleMesh | null;
  /** Named landmarks, mm: `aortic_annulus` and `ascending_aorta` are needed; `lvot` and `sinotubular_junction` used. */
  readonly landmarks: readonly { readonly name: string; readonly position: Vec3 }[];
  /** Stroke volume measured on the delivered LV blood pools at end-diastole and end-systole, mL; null if not both. */
  readonly strokeVolume_mL: number | null;
}

/** The patient a case is built on: a virtual patient (at the room's phase) or a patient of the user's own imaging. */
export type ScenarioPatient = SyntheticPatient | DeliveredPatient;

export function isDelivered(patient: ScenarioPatient): patient is DeliveredPatient {
  return 'source' in patient && (patient.source === 'imaging' || patient.source === 'ssm');
}

/**
 * Stroke volume for a patient without measured LV volumes, mL: a typical resting adult's (70 mL at 70 bpm is the
 * textbook cardiac output of about 5 L/min). The set-up shows it as a value to change.
 */
export const DEFAULT_STROKE_VOLUME_ML = 70;

/** The default stroke volume: the virtual patient's LV volumes, the delivered LV blood pools', or the typical one. */
export function strokeVolumeOf(patient: ScenarioPatient): number {
  if (isDelivered(patient)) return patient.strokeVolume_mL ?? DEFAULT_STROKE_VOLUME_ML;
  return patient.cardiac.lvEdv_mL - patient.cardiac.lvEsv_mL;
}

/** The patient's sex where known (it sets the ejection time); an imaging patient's is not. */
export function sexOf(patient: ScenarioPatient): Sex | null {
  return isDelivered(patient) ? null : patient.sex;
}
