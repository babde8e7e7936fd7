import { PARAMETER_DEFINITIONS, type SyntheticPatient } from '@insilico/anatomy';
import { toCsv } from '@insilico/contracts/csv';
import { parametersOf } from './cohort-patient.mapper';

/**
 * Values as the cohort's tables show them (the parameter's decimals): a spreadsheet and the page agree, and no
 * digits pretend to a precision the synthetic model does not have (issue 14). Still a number, so the writer's
 * formula guard leaves negative values alone.
 */
function rounded(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

/**
 * The patients of a cohort as CSV: one row per patient, demographics first, then every parameter with its unit
 * in the header (e.g. `Aortic annulus area (mm²)`). Lists inside a field are separated by `;`. CRLF line ends
 * (`@insilico/contracts/csv`, with its formula guard).
 */
export function cohortCsv(patients: readonly SyntheticPatient[]): string {
  const header = [
    'Patient',
    'Synthetic',
    'Sex',
    'Age (years)',
    'Age groups',
    'Origin (location)',
    'Origin (ethnicity)',
    'Pathologies',
    'Phases',
    ...PARAMETER_DEFINITIONS.map((definition) => `${definition.label} (${definition.unit})`),
    'LV hypertrophy',
  ];
  const rows = patients.map((patient) => [
    patient.id,
    patient.synthetic ? 'yes' : 'no',
    patient.sex,
    patient.age_years,
    patient.ageGroups.join(';'),
    patient.originLocation,
    patient.originEthnicity,
    patient.pathologies.join(';'),
    patient.phases.join(';'),
    ...parametersOf(patient).map((parameter) => rounded(parameter.value, parameter.decimals)),
    patient.cardiac.lvHypertrophy ? 'yes' : 'no',
  ]);
  return toCsv([header, ...rows]);
}
