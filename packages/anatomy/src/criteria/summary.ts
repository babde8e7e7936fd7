import {
  AGE_GROUP_OPTIONS,
  BODY_DIMENSIONS,
  BODY_DIMENSION_RANGES,
  BODY_PART_OPTIONS,
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  SEX_OPTIONS,
  type BodyDimension,
  type CriterionOption,
  type OptionStatus,
} from './enumerations';
import type { CohortCriteria } from './types';

/** One line of a criteria description. */
export interface CriteriaSummaryPart {
  readonly key:
    'body_part' | 'pathology' | 'sex' | 'body_dimensions' | 'origin' | 'age_group' | 'phases_of_heart_cycle';
  readonly text: string;
}

const DIMENSION_LABELS: Readonly<Record<BodyDimension, string>> = {
  height: 'Height',
  weight: 'Weight',
  bmi: 'BMI',
  bsa: 'BSA',
};
const UNIT_DISPLAY: Readonly<Record<string, string>> = { cm: 'cm', kg: 'kg', 'kg/m2': 'kg/m²', m2: 'm²' };

const labelsWith = (
  map: Readonly<Record<string, OptionStatus | undefined>>,
  options: readonly CriterionOption<string>[],
  status: OptionStatus,
): string[] => options.filter((option) => map[option.key] === status).map((option) => option.label);

/**
 * Human-readable parts of a criteria object, in the spec's order, omitting criteria that do not filter
 * (e.g. for the cohort list's "criteria summary"). Ranges open at a slider end are written as ≥ / ≤.
 */
export function describeCriteria(criteria: CohortCriteria): CriteriaSummaryPart[] {
  const parts: CriteriaSummaryPart[] = [];
  const body = BODY_PART_OPTIONS.find((option) => option.key === criteria.body_part);
  parts.push({ key: 'body_part', text: body?.label ?? criteria.body_part });

  const withPathology = labelsWith(criteria.pathology, PATHOLOGY_OPTIONS, 'selected');
  const withoutPathology = labelsWith(criteria.pathology, PATHOLOGY_OPTIONS, 'excluded');
  const requested = Object.entries(criteria.pathology)
    .filter(([, status]) => status === 'new')
    .map(([key]) => key);
  const pathology: string[] = [];
  if (withPathology.length > 0) pathology.push(`with ${withPathology.join(' and ')}`);
  if (withoutPathology.length > 0) pathology.push(`without ${withoutPathology.join(', ')}`);
  if (requested.length > 0) pathology.push(`requested: ${requested.join(', ')}`);
  if (pathology.length > 0) parts.push({ key: 'pathology', text: pathology.join('; ') });

  const sexes = labelsWith(criteria.sex, SEX_OPTIONS, 'selected');
  if (sexes.length > 0) parts.push({ key: 'sex', text: sexes.join(' or ') });

  const ranges: string[] = [];
  for (const dimension of BODY_DIMENSIONS) {
    const domain = BODY_DIMENSION_RANGES[dimension];
    const { min, max } = criteria.body_dimensions[dimension];
    const unit = UNIT_DISPLAY[domain.unit] ?? domain.unit;
    const label = DIMENSION_LABELS[dimension];
    const lowOpen = min <= domain.min;
    const highOpen = max >= domain.max;
    if (lowOpen && highOpen) continue;
    if (lowOpen) ranges.push(`${label} ≤ ${max} ${unit}`);
    else if (highOpen) ranges.push(`${label} ≥ ${min} ${unit}`);
    else ranges.push(`${label} ${min}–${max} ${unit}`);
  }
  if (ranges.length > 0) parts.push({ key: 'body_dimensions', text: ranges.join(', ') });

  const origins =
    criteria.origin.by === 'location'
      ? labelsWith(criteria.origin.location, ORIGIN_LOCATION_OPTIONS, 'selected')
      : labelsWith(criteria.origin.ethnicity, ORIGIN_ETHNICITY_OPTIONS, 'selected');
  if (origins.length > 0) parts.push({ key: 'origin', text: origins.join(' or ') });

  const ages = labelsWith(criteria.age_group, AGE_GROUP_OPTIONS, 'selected');
  if (ages.length > 0) parts.push({ key: 'age_group', text: ages.join(' or ') });

  const phases = labelsWith(criteria.phases_of_heart_cycle, PHASE_OPTIONS, 'selected');
  if (phases.length > 0) parts.push({ key: 'phases_of_heart_cycle', text: phases.join(', ') });
  return parts;
}

/** One-line summary of a criteria object, parts joined by " · ", e.g. "Heart and thorax · Female · Adult (18–75)". */
export function summarizeCriteria(criteria: CohortCriteria): string {
  const parts = describeCriteria(criteria);
  const text = parts.map((part) => part.text).join(' · ');
  return parts.length === 1 ? `${text} · all patients` : text;
}
