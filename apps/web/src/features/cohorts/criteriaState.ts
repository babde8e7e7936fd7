import {
  AGE_GROUP_OPTIONS,
  BODY_DIMENSION_RANGES,
  COHORT_SIZES,
  createDefaultCriteria,
  cyclePathology,
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  SEX_OPTIONS,
  toggleAgeGroup,
  toggleOrigin,
  togglePhase,
  toggleSex,
  validateCriteria,
  type CohortCriteria,
  type CriterionOption,
  type OptionStatus,
} from '@insilico/anatomy';

/**
 * The order page's view of criteria: which options each group shows, with what status, and what a click does
 * (spec §4 "Options and processing"). The rules themselves live in @insilico/anatomy; this maps them to the
 * option groups the page renders.
 */

/** The option groups of the page, in the spec's order (origin has one group per mode). */
export type OptionGroup = 'pathology' | 'sex' | 'origin.location' | 'origin.ethnicity' | 'age_group' | 'phases';

export const OPTION_GROUPS: readonly {
  group: OptionGroup;
  label: string;
  options: readonly CriterionOption<string>[];
}[] = [
  { group: 'pathology', label: 'Pathology', options: PATHOLOGY_OPTIONS },
  { group: 'sex', label: 'Sex', options: SEX_OPTIONS },
  { group: 'origin.location', label: 'Origin by location', options: ORIGIN_LOCATION_OPTIONS },
  { group: 'origin.ethnicity', label: 'Origin by race/ethnicity', options: ORIGIN_ETHNICITY_OPTIONS },
  { group: 'age_group', label: 'Age group', options: AGE_GROUP_OPTIONS },
  { group: 'phases', label: 'Phases of the heart cycle', options: PHASE_OPTIONS },
];

const statusMapOf = (
  criteria: CohortCriteria,
  group: OptionGroup,
): Readonly<Record<string, OptionStatus | undefined>> => {
  switch (group) {
    case 'pathology':
      return criteria.pathology;
    case 'sex':
      return criteria.sex;
    case 'origin.location':
      return criteria.origin.location;
    case 'origin.ethnicity':
      return criteria.origin.ethnicity;
    case 'age_group':
      return criteria.age_group;
    case 'phases':
      return criteria.phases_of_heart_cycle;
  }
};

/** The status an option shows; disabled options are always `default`. */
export function optionStatus(criteria: CohortCriteria, group: OptionGroup, key: string): OptionStatus {
  return statusMapOf(criteria, group)[key] ?? 'default';
}

/** What a click on an option does: pathologies cycle select → exclude → deselect, others select/deselect. */
export function clickOption(criteria: CohortCriteria, group: OptionGroup, key: string): CohortCriteria {
  switch (group) {
    case 'pathology':
      return cyclePathology(criteria, key);
    case 'sex':
      return toggleSex(criteria, key);
    case 'origin.location':
      return toggleOrigin(criteria, 'location', key);
    case 'origin.ethnicity':
      return toggleOrigin(criteria, 'ethnicity', key);
    case 'age_group':
      return toggleAgeGroup(criteria, key);
    case 'phases':
      return togglePhase(criteria, key);
  }
}

/** The accessible description of an option's state, e.g. "Heart failure: excluded". */
export function optionStateLabel(label: string, status: OptionStatus, enabled: boolean): string {
  if (!enabled) return `${label} (not available)`;
  if (status === 'selected') return `${label}: selected`;
  if (status === 'excluded') return `${label}: excluded`;
  if (status === 'new') return `${label}: requested`;
  return label;
}

/** User-requested pathologies (status `new`), in the order they were added. */
export function requestedPathologies(criteria: CohortCriteria): string[] {
  return Object.entries(criteria.pathology)
    .filter(([, status]) => status === 'new')
    .map(([key]) => key);
}

/** True when nothing differs from a new draft (nothing to lose on leaving). */
export function isDefaultCriteria(criteria: CohortCriteria): boolean {
  return JSON.stringify(criteria) === JSON.stringify(createDefaultCriteria());
}

/** The sizes that can be ordered with `matching` patients (null while unknown: all). */
export function orderableSizes(matching: number | null): { size: number; enabled: boolean }[] {
  return COHORT_SIZES.map((size) => ({ size, enabled: matching === null || size <= matching }));
}

/** Formats a range of a body dimension, e.g. "150–190 cm" or "any". */
export function formatRange(dimension: keyof typeof BODY_DIMENSION_RANGES, min: number, max: number): string {
  const domain = BODY_DIMENSION_RANGES[dimension];
  const unit = domain.unit === 'kg/m2' ? 'kg/m²' : domain.unit === 'm2' ? 'm²' : domain.unit;
  if (min <= domain.min && max >= domain.max) return 'any';
  if (min <= domain.min) return `≤ ${max} ${unit}`;
  if (max >= domain.max) return `≥ ${min} ${unit}`;
  return `${min}–${max} ${unit}`;
}

/**
 * Reads criteria saved by the page (session storage) back; anything that is not valid criteria gives a new
 * draft, so a stale or tampered draft never reaches the server.
 */
export function parseSavedCriteria(text: string | null): CohortCriteria {
  if (!text) return createDefaultCriteria();
  try {
    const parsed = JSON.parse(text) as CohortCriteria;
    return validateCriteria(parsed).length === 0 ? parsed : createDefaultCriteria();
  } catch {
    return createDefaultCriteria();
  }
}
