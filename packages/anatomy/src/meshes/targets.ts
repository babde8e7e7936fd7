import { ellipsePerimeter_mm } from '../model/geometry';
import type { SyntheticPatient } from '../population/types';
import { contractionOf, type MeshPhase } from './phase';

/** Minimal/maximal atrial volume (ours: LA total emptying fraction ≈ 55 %, RA ≈ 50 %; ASE/EACVI 2015 ranges). */
export const LA_MIN_FRACTION = 0.45;
/** Minimal/maximal right-atrial volume (ours). */
export const RA_MIN_FRACTION = 0.5;
/** Myocardial density, g/mL (the generator's LV mass convention). */
export const MYOCARDIAL_DENSITY_G_ML = 1.05;

/**
 * What the meshes of a patient measure, by the definitions of `measurePatientMeshes`: volumes in mL, lengths in
 * mm, areas in mm². The same record holds the targets ({@link meshTargets}) and the measurements.
 */
export interface MeshMeasurements {
  readonly lvBloodPool_mL: number;
  readonly lvMyocardium_mL: number;
  readonly rvBloodPool_mL: number;
  readonly laBloodPool_mL: number;
  readonly raBloodPool_mL: number;
  readonly aorticAnnulusPerimeter_mm: number;
  readonly aorticAnnulusArea_mm2: number;
  readonly aorticAnnulusMajorDiameter_mm: number;
  readonly aorticAnnulusMinorDiameter_mm: number;
  readonly mitralAnnulusPerimeter_mm: number;
  readonly mitralAnnulusArea_mm2: number;
  /** Mitral inter-commissural (major) diameter, mm. */
  readonly mitralAnnulusIcDiameter_mm: number;
  /** Mitral antero-posterior (septal-lateral, minor) diameter, mm. */
  readonly mitralAnnulusApDiameter_mm: number;
  readonly tricuspidAnnulusDiameter_mm: number;
  /** Pulmonary annulus, modelled with the main pulmonary artery diameter (no separate parameter). */
  readonly pulmonaryAnnulusDiameter_mm: number;
  readonly lvotDiameter_mm: number;
  readonly sinusOfValsalvaDiameter_mm: number;
  readonly sinotubularJunctionDiameter_mm: number;
  readonly ascendingAortaDiameter_mm: number;
}

/**
 * The values a patient's meshes must measure at `phase`: ventricular volumes run from EDV (end-diastole) to ESV
 * (end-systole) with the phase's contraction, atrial volumes the other way from their minimum to the patient's
 * maximal volume at end-systole; myocardial volume = LV mass / 1.05 g/mL at every phase; the aortic root and
 * the annuli are phase-independent (CT convention: the root at mid-systole).
 */
export function meshTargets(patient: SyntheticPatient, phase: MeshPhase): MeshMeasurements {
  const c = patient.cardiac;
  const e = contractionOf(phase);
  return {
    lvBloodPool_mL: c.lvEdv_mL + (c.lvEsv_mL - c.lvEdv_mL) * e,
    lvMyocardium_mL: c.lvMass_g / MYOCARDIAL_DENSITY_G_ML,
    rvBloodPool_mL: c.rvEdv_mL + (c.rvEsv_mL - c.rvEdv_mL) * e,
    laBloodPool_mL: c.laVolume_mL * (LA_MIN_FRACTION + (1 - LA_MIN_FRACTION) * e),
    raBloodPool_mL: c.raVolume_mL * (RA_MIN_FRACTION + (1 - RA_MIN_FRACTION) * e),
    aorticAnnulusPerimeter_mm: c.aorticAnnulusPerimeter_mm,
    aorticAnnulusArea_mm2: c.aorticAnnulusArea_mm2,
    aorticAnnulusMajorDiameter_mm: c.aorticAnnulusMajorDiameter_mm,
    aorticAnnulusMinorDiameter_mm: c.aorticAnnulusMinorDiameter_mm,
    mitralAnnulusPerimeter_mm: ellipsePerimeter_mm(c.mitralAnnulusIcDiameter_mm, c.mitralAnnulusApDiameter_mm),
    mitralAnnulusArea_mm2: c.mitralAnnulusArea_mm2,
    mitralAnnulusIcDiameter_mm: c.mitralAnnulusIcDiameter_mm,
    mitralAnnulusApDiameter_mm: c.mitralAnnulusApDiameter_mm,
    tricuspidAnnulusDiameter_mm: c.tricuspidAnnulusDiameter_mm,
    pulmonaryAnnulusDiameter_mm: c.mainPulmonaryArteryDiameter_mm,
    lvotDiameter_mm: c.lvotDiameter_mm,
    sinusOfValsalvaDiameter_mm: c.sinusOfValsalvaDiameter_mm,
    sinotubularJunctionDiameter_mm: c.sinotubularJunctionDiameter_mm,
    ascendingAortaDiameter_mm: c.ascendingAortaDiameter_mm,
  };
}
