/**
 * Enumerations of spec §3 ("Patient cohort", "Enumerations", "Cohort criteria") and §9, shared by the
 * generator, the server and the web app. Disabled options are listed (the UI shows them) but can never be
 * chosen and are never generated.
 */

/** An option of a criterion as the UI lists it. */
export interface CriterionOption<K extends string> {
  readonly key: K;
  /** English label as the UI shows it. */
  readonly label: string;
  readonly enabled: boolean;
}

/** The filter keys of a cohort's criteria, in the spec's order. */
export const CRITERIA_KEYS = [
  'pathology',
  'sex',
  'body_dimensions',
  'origin',
  'age_group',
  'phases_of_heart_cycle',
] as const;
/** A filter key of a cohort's criteria. */
export type CriteriaKey = (typeof CRITERIA_KEYS)[number];

/** Status of one option: untouched, chosen, excluded (pathology only) or a user-requested new option (pathology only). */
export const OPTION_STATUSES = ['default', 'selected', 'excluded', 'new'] as const;
/** Status of one option of a criterion. */
export type OptionStatus = (typeof OPTION_STATUSES)[number];

/** Body parts; heart_and_thorax is the only enabled one and the default of a draft's criteria. */
export const BODY_PART_OPTIONS = [
  { key: 'heart_and_thorax', label: 'Heart and thorax', enabled: true },
  { key: 'spinal', label: 'Spinal', enabled: false },
  { key: 'abdominal', label: 'Abdominal', enabled: false },
  { key: 'head_and_neck', label: 'Head and neck', enabled: false },
  { key: 'arms', label: 'Arms', enabled: false },
  { key: 'legs', label: 'Legs', enabled: false },
  { key: 'dental', label: 'Dental', enabled: false },
] as const satisfies readonly CriterionOption<string>[];
/** A body part key (enabled or not). */
export type BodyPart = (typeof BODY_PART_OPTIONS)[number]['key'];
/** The body part a draft cohort's criteria default to. */
export const DEFAULT_BODY_PART = 'heart_and_thorax' satisfies BodyPart;

/** Sex options. */
export const SEX_OPTIONS = [
  { key: 'female', label: 'Female', enabled: true },
  { key: 'male', label: 'Male', enabled: true },
] as const satisfies readonly CriterionOption<string>[];
/** Biological sex of a patient. */
export type Sex = (typeof SEX_OPTIONS)[number]['key'];

/** Origin by location; middle_east_africa is disabled. */
export const ORIGIN_LOCATION_OPTIONS = [
  { key: 'europe', label: 'Europe', enabled: true },
  { key: 'asia_pacific', label: 'Asia-Pacific', enabled: true },
  { key: 'north_south_america', label: 'North and South America', enabled: true },
  { key: 'middle_east_africa', label: 'Middle East and Africa', enabled: false },
] as const satisfies readonly CriterionOption<string>[];
/** Origin by location (enabled or not). */
export type OriginLocation = (typeof ORIGIN_LOCATION_OPTIONS)[number]['key'];

/** Origin by race/ethnicity; only asian and white are enabled. */
export const ORIGIN_ETHNICITY_OPTIONS = [
  { key: 'asian', label: 'Asian', enabled: true },
  { key: 'white', label: 'White', enabled: true },
  { key: 'american_indian_or_alaska_native', label: 'American Indian or Alaska Native', enabled: false },
  { key: 'black_or_african_american', label: 'Black or African American', enabled: false },
  {
    key: 'native_hawaiian_or_other_pacific_islander',
    label: 'Native Hawaiian or other Pacific Islander',
    enabled: false,
  },
  { key: 'hispanic', label: 'Hispanic', enabled: false },
] as const satisfies readonly CriterionOption<string>[];
/** Origin by race/ethnicity (enabled or not). */
export type OriginEthnicity = (typeof ORIGIN_ETHNICITY_OPTIONS)[number]['key'];

/** The two ways origin can be filtered; a criteria object uses one of them. */
export const ORIGIN_MODES = ['location', 'ethnicity'] as const;
/** How origin is filtered. */
export type OriginMode = (typeof ORIGIN_MODES)[number];

/** Age groups with inclusive bounds in years (maxAge_years null = open). Adult and geriatric overlap at 65–75. */
export const AGE_GROUP_OPTIONS = [
  { key: 'pediatric', label: 'Pediatric (0–17)', enabled: false, minAge_years: 0, maxAge_years: 17 },
  { key: 'adult', label: 'Adult (18–75)', enabled: true, minAge_years: 18, maxAge_years: 75 },
  { key: 'geriatric', label: 'Geriatric (65+)', enabled: true, minAge_years: 65, maxAge_years: null },
] as const satisfies readonly (CriterionOption<string> & { minAge_years: number; maxAge_years: number | null })[];
/** An age group key (enabled or not). */
export type AgeGroup = (typeof AGE_GROUP_OPTIONS)[number]['key'];

/** The five built-in pathologies. Users may request further ones (status `new`). */
export const PATHOLOGY_OPTIONS = [
  { key: 'mitral_valve_insufficiency', label: 'Mitral valve insufficiency', enabled: true },
  { key: 'heart_failure', label: 'Heart failure', enabled: true },
  { key: 'pulmonary_valve_insufficiency', label: 'Pulmonary valve insufficiency', enabled: true },
  { key: 'tricuspid_valve_insufficiency', label: 'Tricuspid valve insufficiency', enabled: true },
  { key: 'aortic_valve_insufficiency_stenosis', label: 'Aortic valve insufficiency/stenosis', enabled: true },
] as const satisfies readonly CriterionOption<string>[];
/** A built-in pathology key. */
export type Pathology = (typeof PATHOLOGY_OPTIONS)[number]['key'];

/** Phases of the heart cycle; selecting cine_ct also selects the phases it `implies`. */
export const PHASE_OPTIONS = [
  { key: 'end-systole', label: 'End-systole', enabled: true, implies: [] },
  { key: 'end-diastole', label: 'End-diastole', enabled: true, implies: [] },
  { key: 'cine_ct', label: 'Cine CT', enabled: true, implies: ['end-systole', 'end-diastole'] },
] as const satisfies readonly (CriterionOption<string> & { implies: readonly string[] })[];
/** A phase of the heart cycle available for a patient. */
export type Phase = (typeof PHASE_OPTIONS)[number]['key'];

/** Cohort sizes offered (spec §3, §9). */
export const COHORT_SIZES = [5, 10, 20, 50, 100] as const;
/** A cohort size offered. */
export type CohortSize = (typeof COHORT_SIZES)[number];

/** A slider domain: inclusive bounds and step, with the unit of the value. */
export interface RangeDomain {
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly unit: string;
}

/** Body-dimension slider domains (spec §3): height cm, weight kg, BMI kg/m², BSA m². */
export const BODY_DIMENSION_RANGES = {
  height: { min: 0, max: 215, step: 5, unit: 'cm' },
  weight: { min: 0, max: 180, step: 5, unit: 'kg' },
  bmi: { min: 10, max: 40, step: 0.5, unit: 'kg/m2' },
  bsa: { min: 0, max: 3.5, step: 0.1, unit: 'm2' },
} as const satisfies Record<string, RangeDomain>;
/** A body dimension that can be filtered. */
export type BodyDimension = keyof typeof BODY_DIMENSION_RANGES;
/** The body dimensions in display order. */
export const BODY_DIMENSIONS = ['height', 'weight', 'bmi', 'bsa'] as const satisfies readonly BodyDimension[];

/** True when `key` is an enabled option of `options`. */
export function isEnabledOption<K extends string>(options: readonly CriterionOption<K>[], key: string): key is K {
  return options.some((option) => option.key === key && option.enabled);
}

/** Enabled keys of an option list, in list order. */
export function enabledKeys<K extends string>(options: readonly CriterionOption<K>[]): K[] {
  return options.filter((option) => option.enabled).map((option) => option.key);
}
