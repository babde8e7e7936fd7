import type { SyntheticPatient } from '../population/types';
import {
  BODY_DIMENSIONS,
  BODY_DIMENSION_RANGES,
  PATHOLOGY_OPTIONS,
  type BodyDimension,
  type OptionStatus,
  type Pathology,
  type Phase,
} from './enumerations';
import type { CohortCriteria } from './types';
import { CriteriaError, normalizeCriteria, validateCriteria } from './validate';

/** A compiled criteria predicate. */
export type PatientPredicate = (patient: SyntheticPatient) => boolean;

const selectedKeys = (map: Readonly<Record<string, OptionStatus | undefined>>): Set<string> =>
  new Set(
    Object.entries(map)
      .filter(([, status]) => status === 'selected')
      .map(([key]) => key),
  );

/** The patient's value of a body dimension in the slider's unit (BSA: Du Bois). */
export function bodyDimensionOf(patient: SyntheticPatient, dimension: BodyDimension): number {
  switch (dimension) {
    case 'height':
      return patient.body.height_cm;
    case 'weight':
      return patient.body.weight_kg;
    case 'bmi':
      return patient.body.bmi_kg_m2;
    case 'bsa':
      return patient.body.bsaDuBois_m2;
  }
}

/**
 * Compiles criteria into a predicate. Semantics (docs/decisions/anatomy-criteria-semantics.md):
 * - sex, age group, origin (by the active mode only): OR within a criterion; nothing selected = no filter;
 *   age groups overlap (a 70-year-old is adult and geriatric);
 * - pathology: every `selected` present AND no `excluded` present; `new` requests do not filter;
 * - phases: every selected phase available (cine_ct implies both static phases);
 * - body dimensions: inclusive min/max; a bound at the slider's end is open (max 40 BMI includes 45);
 * - criteria are AND-ed. Throws CriteriaError for criteria with issues (validateCriteria after normalisation).
 */
export function compileCriteria(criteria: CohortCriteria): PatientPredicate {
  const normalized = normalizeCriteria(criteria);
  const issues = validateCriteria(normalized);
  if (issues.length > 0) throw new CriteriaError(issues);

  const sexes = selectedKeys(normalized.sex);
  const ageGroups = selectedKeys(normalized.age_group);
  const origin = normalized.origin.by;
  const origins = selectedKeys(origin === 'location' ? normalized.origin.location : normalized.origin.ethnicity);
  const required: Pathology[] = [];
  const excluded: Pathology[] = [];
  for (const option of PATHOLOGY_OPTIONS) {
    const status = normalized.pathology[option.key];
    if (status === 'selected') required.push(option.key);
    else if (status === 'excluded') excluded.push(option.key);
  }
  const phases = [...selectedKeys(normalized.phases_of_heart_cycle)] as Phase[];
  const ranges = BODY_DIMENSIONS.map((dimension) => {
    const domain = BODY_DIMENSION_RANGES[dimension];
    const range = normalized.body_dimensions[dimension];
    return {
      dimension,
      lo: range.min <= domain.min ? Number.NEGATIVE_INFINITY : range.min,
      hi: range.max >= domain.max ? Number.POSITIVE_INFINITY : range.max,
    };
  }).filter((range) => range.lo !== Number.NEGATIVE_INFINITY || range.hi !== Number.POSITIVE_INFINITY);

  return (patient) => {
    if (sexes.size > 0 && !sexes.has(patient.sex)) return false;
    if (ageGroups.size > 0 && !patient.ageGroups.some((group) => ageGroups.has(group))) return false;
    if (origins.size > 0 && !origins.has(origin === 'location' ? patient.originLocation : patient.originEthnicity))
      return false;
    for (const key of required) if (!patient.pathologies.includes(key)) return false;
    for (const key of excluded) if (patient.pathologies.includes(key)) return false;
    for (const phase of phases) if (!patient.phases.includes(phase)) return false;
    for (const range of ranges) {
      const value = bodyDimensionOf(patient, range.dimension);
      if (value < range.lo || value > range.hi) return false;
    }
    return true;
  };
}

/** Patients matching the criteria, in input order. Throws CriteriaError for invalid criteria. */
export function matchPatients(patients: readonly SyntheticPatient[], criteria: CohortCriteria): SyntheticPatient[] {
  const predicate = compileCriteria(criteria);
  return patients.filter(predicate);
}

/** Number of patients matching the criteria (the live count of the order page). */
export function countMatches(patients: readonly SyntheticPatient[], criteria: CohortCriteria): number {
  const predicate = compileCriteria(criteria);
  let count = 0;
  for (const patient of patients) if (predicate(patient)) count += 1;
  return count;
}
