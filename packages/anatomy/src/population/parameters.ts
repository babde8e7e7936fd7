import type { BodySize, CardiacParameters } from './types';

/** A numeric patient parameter as tables and CSV exports show it. */
export interface ParameterDefinition {
  /** Where the value lives: `body.<key>` or `cardiac.<key>`. */
  readonly group: 'body' | 'cardiac';
  readonly key: keyof BodySize | Exclude<keyof CardiacParameters, 'lvHypertrophy'>;
  readonly label: string;
  /** Unit as shown (mm, mm², cm², mL, g, %, cm, kg, kg/m², m²). */
  readonly unit: string;
  /** Decimals to display (values are stored at full precision). */
  readonly decimals: number;
}

/** Every numeric parameter of a patient, in display order, with label, unit and display precision. */
export const PARAMETER_DEFINITIONS: readonly ParameterDefinition[] = [
  { group: 'body', key: 'height_cm', label: 'Height', unit: 'cm', decimals: 1 },
  { group: 'body', key: 'weight_kg', label: 'Weight', unit: 'kg', decimals: 1 },
  { group: 'body', key: 'bmi_kg_m2', label: 'BMI', unit: 'kg/m²', decimals: 1 },
  { group: 'body', key: 'bsaDuBois_m2', label: 'BSA (Du Bois)', unit: 'm²', decimals: 2 },
  { group: 'body', key: 'bsaMosteller_m2', label: 'BSA (Mosteller)', unit: 'm²', decimals: 2 },
  { group: 'cardiac', key: 'aorticAnnulusDiameter_mm', label: 'Aortic annulus mean diameter', unit: 'mm', decimals: 1 },
  {
    group: 'cardiac',
    key: 'aorticAnnulusMajorDiameter_mm',
    label: 'Aortic annulus major diameter',
    unit: 'mm',
    decimals: 1,
  },
  {
    group: 'cardiac',
    key: 'aorticAnnulusMinorDiameter_mm',
    label: 'Aortic annulus minor diameter',
    unit: 'mm',
    decimals: 1,
  },
  { group: 'cardiac', key: 'aorticAnnulusPerimeter_mm', label: 'Aortic annulus perimeter', unit: 'mm', decimals: 1 },
  { group: 'cardiac', key: 'aorticAnnulusArea_mm2', label: 'Aortic annulus area', unit: 'mm²', decimals: 0 },
  { group: 'cardiac', key: 'aorticValveArea_cm2', label: 'Aortic valve area', unit: 'cm²', decimals: 2 },
  { group: 'cardiac', key: 'lvotDiameter_mm', label: 'LVOT mean diameter', unit: 'mm', decimals: 1 },
  { group: 'cardiac', key: 'sinusOfValsalvaDiameter_mm', label: 'Sinus of Valsalva diameter', unit: 'mm', decimals: 1 },
  {
    group: 'cardiac',
    key: 'sinotubularJunctionDiameter_mm',
    label: 'Sinotubular junction diameter',
    unit: 'mm',
    decimals: 1,
  },
  {
    group: 'cardiac',
    key: 'sinotubularJunctionHeight_mm',
    label: 'Sinotubular junction height',
    unit: 'mm',
    decimals: 1,
  },
  { group: 'cardiac', key: 'ascendingAortaDiameter_mm', label: 'Ascending aorta diameter', unit: 'mm', decimals: 1 },
  { group: 'cardiac', key: 'leftCoronaryHeight_mm', label: 'Left coronary height', unit: 'mm', decimals: 1 },
  { group: 'cardiac', key: 'rightCoronaryHeight_mm', label: 'Right coronary height', unit: 'mm', decimals: 1 },
  { group: 'cardiac', key: 'lvEdv_mL', label: 'LV end-diastolic volume', unit: 'mL', decimals: 0 },
  { group: 'cardiac', key: 'lvEsv_mL', label: 'LV end-systolic volume', unit: 'mL', decimals: 0 },
  { group: 'cardiac', key: 'lvEf_percent', label: 'LV ejection fraction', unit: '%', decimals: 1 },
  { group: 'cardiac', key: 'lvMass_g', label: 'LV mass', unit: 'g', decimals: 0 },
  { group: 'cardiac', key: 'laVolume_mL', label: 'LA volume', unit: 'mL', decimals: 0 },
  { group: 'cardiac', key: 'raVolume_mL', label: 'RA volume', unit: 'mL', decimals: 0 },
  { group: 'cardiac', key: 'mitralAnnulusApDiameter_mm', label: 'Mitral annulus AP diameter', unit: 'mm', decimals: 1 },
  {
    group: 'cardiac',
    key: 'mitralAnnulusIcDiameter_mm',
    label: 'Mitral annulus intercommissural diameter',
    unit: 'mm',
    decimals: 1,
  },
  { group: 'cardiac', key: 'mitralAnnulusArea_mm2', label: 'Mitral annulus area', unit: 'mm²', decimals: 0 },
  {
    group: 'cardiac',
    key: 'tricuspidAnnulusDiameter_mm',
    label: 'Tricuspid annulus diameter',
    unit: 'mm',
    decimals: 1,
  },
  { group: 'cardiac', key: 'rvEdv_mL', label: 'RV end-diastolic volume', unit: 'mL', decimals: 0 },
  { group: 'cardiac', key: 'rvEsv_mL', label: 'RV end-systolic volume', unit: 'mL', decimals: 0 },
  { group: 'cardiac', key: 'rvEf_percent', label: 'RV ejection fraction', unit: '%', decimals: 1 },
  {
    group: 'cardiac',
    key: 'mainPulmonaryArteryDiameter_mm',
    label: 'Main pulmonary artery diameter',
    unit: 'mm',
    decimals: 1,
  },
];
