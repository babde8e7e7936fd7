import { PARAMETER_DEFINITIONS, type SyntheticPatient } from '@insilico/anatomy';
import type { AnalysisParameter, CohortParameterTable } from '@insilico/contracts';
import { parametersOf } from './cohort-patient.mapper';

/** The analysable parameters of a patient (every numeric parameter of the catalogue), in display order. */
export const analysableParameters: readonly AnalysisParameter[] = PARAMETER_DEFINITIONS.map(
  ({ key, group, label, unit, decimals }) => ({ key, group, label, unit, decimals }),
);

const analysableKeys = new Set(analysableParameters.map((parameter) => parameter.key));

/** Whether a key names an analysable parameter. */
export function isAnalysableParameter(key: string): boolean {
  return analysableKeys.has(key);
}

/**
 * A cohort's patients with every analysable parameter as columns of numbers (`values[j][i]` = parameter j of
 * patient i): 100 patients × 32 parameters is about 30 KB of JSON instead of 3,200 objects.
 */
export function parameterTableOf(cohortId: string, patients: readonly SyntheticPatient[]): CohortParameterTable {
  const values = analysableParameters.map(() => new Array<number>(patients.length));
  patients.forEach((patient, i) => {
    parametersOf(patient).forEach((parameter, j) => {
      const column = values[j];
      if (column) column[i] = parameter.value;
    });
  });
  return {
    cohortId,
    synthetic: patients.every((patient) => patient.synthetic),
    patients: patients.map((patient) => patient.id),
    sex: patients.map((patient) => patient.sex),
    age: patients.map((patient) => patient.age_years),
    parameters: [...analysableParameters],
    values,
  };
}
