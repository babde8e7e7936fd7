import type { CohortParameterTable } from '@insilico/contracts';
import type { ImagingDatasetRow } from '../repositories/imaging.repository';
import { measuredParameters } from './imaging-anatomy';

/**
 * The parameter table of an imaging cohort's delivered patients (issue 19 item 7), as the population analysis reads
 * a virtual cohort's: the parameters measured on the delivered surfaces (docs/decisions/imaging-patients.md) that
 * every patient has — a volume delivered for some patients only is left out, never filled in — in the first
 * patient's order. Not synthetic; sex and age are unknown (de-identification removed them): '' and null.
 */
export function imagingParameterTable(dataset: Pick<ImagingDatasetRow, 'id' | 'models'>): CohortParameterTable {
  const patients = [...(dataset.models?.patients ?? [])].sort((a, b) => a.patient.localeCompare(b.patient));
  const measured = patients.map((patient) => new Map(measuredParameters(patient).map((p) => [p.key, p])));
  const first = measured[0] ? [...measured[0].values()] : [];
  const common = first.filter((parameter) => measured.every((byKey) => byKey.has(parameter.key)));
  return {
    cohortId: dataset.id,
    synthetic: false,
    patients: patients.map((patient) => patient.patient),
    sex: patients.map(() => ''),
    age: patients.map(() => null),
    parameters: common.map(({ key, group, label, unit, decimals }) => ({ key, group, label, unit, decimals })),
    values: common.map((parameter) => measured.map((byKey) => byKey.get(parameter.key)!.value)),
  };
}
