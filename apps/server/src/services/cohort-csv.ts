import { PARAMETER_DEFINITIONS, type SyntheticPatient } from '@insilico/anatomy';
import { parametersOf } from './cohort-patient.mapper';

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
function field(value: string | number | boolean): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Values as the cohort's tables show them (the parameter's decimals): a spreadsheet and the page agree, and no
 * digits pretend to a precision the synthetic model does not have (issue 14).
 */
function number(value: number, decimals: number): string {
  return Number(value.toFixed(decimals)).toString();
}

/**
 * The patients of a cohort as CSV: one row per patient, demographics first, then every parameter with its unit
 * in the header (e.g. `Aortic annulus area (mm²)`). Lists inside a field are separated by `;`. CRLF line ends.
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
    ...parametersOf(patient).map((parameter) => number(parameter.value, parameter.decimals)),
    patient.cardiac.lvHypertrophy ? 'yes' : 'no',
  ]);
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
