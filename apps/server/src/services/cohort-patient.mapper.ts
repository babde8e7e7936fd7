import {
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  ORGANS,
  PARAMETER_DEFINITIONS,
  PATHOLOGY_OPTIONS,
  phaseLabel,
  SEX_OPTIONS,
  type SyntheticPatient,
} from '@insilico/anatomy';
import type { CohortPatient, CohortPatientRow, PatientParameter, PatientSortKey } from '@insilico/contracts';
import { meshPhasesOf } from './cohort-mesh.service';

/** A patient as a row of the cohort's table. */
export function toPatientRow(patient: SyntheticPatient): CohortPatientRow {
  return {
    id: patient.id,
    synthetic: patient.synthetic,
    sex: patient.sex,
    age: patient.age_years,
    originLocation: patient.originLocation,
    originEthnicity: patient.originEthnicity,
    height_cm: patient.body.height_cm,
    weight_kg: patient.body.weight_kg,
    bmi_kg_m2: patient.body.bmi_kg_m2,
    bsa_m2: patient.body.bsaDuBois_m2,
    pathologies: [...patient.pathologies],
    phases: [...patient.phases],
  };
}

/** Every numeric parameter with its label and unit, in display order. */
export function parametersOf(patient: SyntheticPatient): PatientParameter[] {
  return PARAMETER_DEFINITIONS.map((definition) => ({
    key: definition.key,
    group: definition.group,
    label: definition.label,
    unit: definition.unit,
    decimals: definition.decimals,
    value:
      definition.group === 'body'
        ? patient.body[definition.key as keyof SyntheticPatient['body']]
        : (patient.cardiac[definition.key as keyof SyntheticPatient['cardiac']] as number),
  }));
}

/**
 * One patient of a cohort with every parameter and the mesh phases that can be viewed; `meshModelVersion` is the
 * mesh model that built the cohort's ordered meshes.
 */
export function toCohortPatient(cohortId: string, patient: SyntheticPatient, meshModelVersion: string): CohortPatient {
  return {
    ...toPatientRow(patient),
    cohortId,
    ageGroups: [...patient.ageGroups],
    lvHypertrophy: patient.cardiac.lvHypertrophy,
    parameters: parametersOf(patient),
    meshes: { phases: meshPhasesOf(patient).map(phaseLabel), organs: [...ORGANS], modelVersion: meshModelVersion },
  };
}

const labelOf = (options: readonly { key: string; label: string }[], key: string): string =>
  options.find((option) => option.key === key)?.label ?? key;

/** The words a search matches a patient by: id, sex, origin and pathology labels. */
export function searchTextOf(patient: SyntheticPatient): string {
  return [
    patient.id,
    labelOf(SEX_OPTIONS, patient.sex),
    labelOf(ORIGIN_LOCATION_OPTIONS, patient.originLocation),
    labelOf(ORIGIN_ETHNICITY_OPTIONS, patient.originEthnicity),
    ...patient.pathologies.map((key) => labelOf(PATHOLOGY_OPTIONS, key)),
    patient.pathologies.length === 0 ? 'no pathology' : '',
  ]
    .join(' ')
    .toLowerCase();
}

const sortValue: Record<PatientSortKey, (patient: SyntheticPatient) => number | string> = {
  id: (p) => p.index,
  sex: (p) => p.sex,
  age: (p) => p.age_years,
  origin: (p) => p.originLocation,
  height: (p) => p.body.height_cm,
  weight: (p) => p.body.weight_kg,
  bmi: (p) => p.body.bmi_kg_m2,
  bsa: (p) => p.body.bsaDuBois_m2,
  pathologies: (p) => p.pathologies.length,
};

/** Sorts patients by a column; ties keep the patient-id order so pages are stable. */
export function sortPatients(
  patients: readonly SyntheticPatient[],
  key: PatientSortKey,
  order: 'asc' | 'desc',
): SyntheticPatient[] {
  const value = sortValue[key];
  const direction = order === 'asc' ? 1 : -1;
  return [...patients].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const compared = x < y ? -1 : x > y ? 1 : 0;
    return compared !== 0 ? compared * direction : a.index - b.index;
  });
}
