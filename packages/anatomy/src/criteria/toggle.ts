import {
  AGE_GROUP_OPTIONS,
  BODY_DIMENSION_RANGES,
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  SEX_OPTIONS,
  isEnabledOption,
  type BodyDimension,
  type CriterionOption,
  type OptionStatus,
  type OriginMode,
} from './enumerations';
import type { CohortCriteria, NumericRange } from './types';

/**
 * Immutable edits of a criteria object, as the order page performs them (spec §4 "Options and processing").
 * A disabled or unknown option is never chosen: the criteria come back unchanged.
 */

type StatusMap = Readonly<Record<string, OptionStatus | undefined>>;

const withStatus = (map: StatusMap, key: string, status: OptionStatus): Record<string, OptionStatus> => {
  const next: Record<string, OptionStatus> = {};
  for (const [k, v] of Object.entries(map)) if (v !== undefined && v !== 'default') next[k] = v;
  if (status === 'default') delete next[key];
  else next[key] = status;
  return next;
};

const isSelected = (map: StatusMap, key: string): boolean => map[key] === 'selected';

/** Next status of a built-in pathology on a click: default → selected → excluded → default. */
export function nextPathologyStatus(status: OptionStatus | undefined): OptionStatus {
  if (status === 'selected') return 'excluded';
  if (status === 'excluded') return 'default';
  return 'selected';
}

/** Cycles a built-in pathology (select → exclude → deselect). Unknown or disabled keys: unchanged. */
export function cyclePathology(criteria: CohortCriteria, key: string): CohortCriteria {
  if (!isEnabledOption(PATHOLOGY_OPTIONS, key)) return criteria;
  return { ...criteria, pathology: withStatus(criteria.pathology, key, nextPathologyStatus(criteria.pathology[key])) };
}

/** Maximum length of a requested pathology name. */
export const NEW_PATHOLOGY_MAX_LENGTH = 100;

/**
 * Normalises a requested pathology name: trimmed, inner whitespace collapsed. Returns null if empty, too long
 * or equal (case-insensitively) to a built-in key.
 */
export function normalizeNewPathologyName(name: string): string | null {
  const text = name.trim().replace(/\s+/g, ' ');
  if (text.length === 0 || text.length > NEW_PATHOLOGY_MAX_LENGTH) return null;
  const lower = text.toLowerCase();
  if (PATHOLOGY_OPTIONS.some((option) => option.key === lower || option.key.replace(/_/g, ' ') === lower)) return null;
  return text;
}

/** Adds a user-requested pathology with status `new` (a request to support; it does not filter). */
export function requestNewPathology(criteria: CohortCriteria, name: string): CohortCriteria {
  const key = normalizeNewPathologyName(name);
  if (key === null) return criteria;
  return { ...criteria, pathology: withStatus(criteria.pathology, key, 'new') };
}

/** Removes a user-requested pathology. Built-in keys are not touched. */
export function removeNewPathology(criteria: CohortCriteria, name: string): CohortCriteria {
  if (criteria.pathology[name] !== 'new') return criteria;
  return { ...criteria, pathology: withStatus(criteria.pathology, name, 'default') };
}

const toggle = (
  map: StatusMap,
  options: readonly CriterionOption<string>[],
  key: string,
): Record<string, OptionStatus> | null => {
  if (!isEnabledOption(options, key)) return null;
  return withStatus(map, key, isSelected(map, key) ? 'default' : 'selected');
};

/** Selects or deselects a sex. Unknown keys: unchanged. */
export function toggleSex(criteria: CohortCriteria, key: string): CohortCriteria {
  const sex = toggle(criteria.sex, SEX_OPTIONS, key);
  return sex === null ? criteria : { ...criteria, sex };
}

/** Selects or deselects an age group. Disabled (pediatric) or unknown keys: unchanged. */
export function toggleAgeGroup(criteria: CohortCriteria, key: string): CohortCriteria {
  const age_group = toggle(criteria.age_group, AGE_GROUP_OPTIONS, key);
  return age_group === null ? criteria : { ...criteria, age_group };
}

/**
 * Selects or deselects a phase. Selecting cine_ct also selects end-systole and end-diastole; deselecting either
 * of those deselects cine_ct (cine needs both); deselecting cine_ct leaves the static phases selected.
 */
export function togglePhase(criteria: CohortCriteria, key: string): CohortCriteria {
  let phases = toggle(criteria.phases_of_heart_cycle, PHASE_OPTIONS, key);
  if (phases === null) return criteria;
  const selectedNow = phases[key] === 'selected';
  for (const option of PHASE_OPTIONS) {
    if (selectedNow && option.key === key)
      for (const implied of option.implies) phases = withStatus(phases, implied, 'selected');
    if (!selectedNow && (option.implies as readonly string[]).includes(key))
      phases = withStatus(phases, option.key, 'default');
  }
  return { ...criteria, phases_of_heart_cycle: phases };
}

/** Switches how origin is filtered; both maps are cleared so the criteria stay unambiguous. */
export function setOriginMode(criteria: CohortCriteria, by: OriginMode): CohortCriteria {
  if (criteria.origin.by === by) return criteria;
  return { ...criteria, origin: { by, location: {}, ethnicity: {} } };
}

/**
 * Selects or deselects an origin option of `by` (location or ethnicity). Choosing an option of the other mode
 * switches the mode first (clearing the previous choice). Disabled or unknown keys: unchanged.
 */
export function toggleOrigin(criteria: CohortCriteria, by: OriginMode, key: string): CohortCriteria {
  const options = by === 'location' ? ORIGIN_LOCATION_OPTIONS : ORIGIN_ETHNICITY_OPTIONS;
  if (!isEnabledOption(options, key)) return criteria;
  const base = setOriginMode(criteria, by);
  const map = toggle(by === 'location' ? base.origin.location : base.origin.ethnicity, options, key);
  if (map === null) return criteria;
  return {
    ...base,
    origin: by === 'location' ? { ...base.origin, location: map } : { ...base.origin, ethnicity: map },
  };
}

/** Snaps a value to the slider grid of `dimension` (nearest step) and clamps it to the domain. */
export function snapToDomain(dimension: BodyDimension, value: number): number {
  const domain = BODY_DIMENSION_RANGES[dimension];
  if (!Number.isFinite(value)) return domain.min;
  const steps = Math.round((value - domain.min) / domain.step);
  const snapped = domain.min + steps * domain.step;
  // Round away binary noise of the step (e.g. 0.1): 10 significant decimals are plenty for these grids.
  const clean = Math.round(snapped * 1e10) / 1e10;
  return Math.min(domain.max, Math.max(domain.min, clean));
}

/** Sets a body-dimension range, snapped to the slider grid and clamped to the domain; min and max are ordered. */
export function setBodyDimensionRange(
  criteria: CohortCriteria,
  dimension: BodyDimension,
  range: NumericRange,
): CohortCriteria {
  const a = snapToDomain(dimension, range.min);
  const b = snapToDomain(dimension, range.max);
  return {
    ...criteria,
    body_dimensions: { ...criteria.body_dimensions, [dimension]: { min: Math.min(a, b), max: Math.max(a, b) } },
  };
}
