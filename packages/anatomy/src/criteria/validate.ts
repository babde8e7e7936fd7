import {
  AGE_GROUP_OPTIONS,
  BODY_DIMENSIONS,
  BODY_DIMENSION_RANGES,
  BODY_PART_OPTIONS,
  OPTION_STATUSES,
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  ORIGIN_MODES,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  SEX_OPTIONS,
  type CriterionOption,
  type OptionStatus,
} from './enumerations';
import { normalizeNewPathologyName } from './toggle';
import type { CohortCriteria } from './types';

/** Why a criteria object is not acceptable. */
export type CriteriaIssueCode =
  | 'disabled_option'
  | 'unknown_option'
  | 'invalid_status'
  | 'invalid_new_pathology'
  | 'implied_phase_missing'
  | 'range_out_of_domain'
  | 'range_off_step'
  | 'range_inverted'
  | 'invalid_origin_mode';

/** One problem of a criteria object; `path` is dotted, e.g. `origin.ethnicity.hispanic`. */
export interface CriteriaIssue {
  readonly path: string;
  readonly code: CriteriaIssueCode;
  readonly message: string;
}

/** Thrown by the matching functions for criteria with issues. */
export class CriteriaError extends Error {
  readonly issues: readonly CriteriaIssue[];
  constructor(issues: readonly CriteriaIssue[]) {
    super(`invalid cohort criteria: ${issues.map((issue) => `${issue.path} (${issue.code})`).join(', ')}`);
    this.name = 'CriteriaError';
    this.issues = issues;
  }
}

const isStatus = (value: unknown): value is OptionStatus => (OPTION_STATUSES as readonly unknown[]).includes(value);

function checkOptions(
  issues: CriteriaIssue[],
  path: string,
  map: Readonly<Record<string, OptionStatus | undefined>>,
  options: readonly CriterionOption<string>[],
  allowed: readonly OptionStatus[],
): void {
  for (const [key, status] of Object.entries(map)) {
    const where = `${path}.${key}`;
    const option = options.find((candidate) => candidate.key === key);
    if (!isStatus(status)) {
      issues.push({ path: where, code: 'invalid_status', message: `${where}: unknown status ${String(status)}` });
    } else if (option === undefined) {
      issues.push({ path: where, code: 'unknown_option', message: `${where}: not an option of ${path}` });
    } else if (status !== 'default' && !option.enabled) {
      issues.push({
        path: where,
        code: 'disabled_option',
        message: `${where}: this option is not available and cannot be chosen`,
      });
    } else if (!allowed.includes(status)) {
      issues.push({ path: where, code: 'invalid_status', message: `${where}: status ${status} is not allowed here` });
    }
  }
}

const onGrid = (value: number, min: number, step: number): boolean => {
  const steps = (value - min) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-6;
};

/**
 * Checks a criteria object against spec §3: only enabled options may be non-default; `excluded` only for
 * pathologies, `new` only for user-requested pathologies; cine_ct selected needs both static phases selected;
 * ranges inside the slider domain, on its step, min ≤ max. Returns every issue found (empty when valid).
 */
export function validateCriteria(criteria: CohortCriteria): CriteriaIssue[] {
  const issues: CriteriaIssue[] = [];
  const body = BODY_PART_OPTIONS.find((option) => option.key === criteria.body_part);
  if (body === undefined)
    issues.push({ path: 'body_part', code: 'unknown_option', message: 'body_part: unknown body part' });
  else if (!body.enabled)
    issues.push({ path: 'body_part', code: 'disabled_option', message: `body_part: ${body.key} is not available` });

  for (const [key, status] of Object.entries(criteria.pathology)) {
    const where = `pathology.${key}`;
    const builtIn = PATHOLOGY_OPTIONS.some((option) => option.key === key);
    if (!isStatus(status))
      issues.push({ path: where, code: 'invalid_status', message: `${where}: unknown status ${String(status)}` });
    else if (builtIn && status === 'new')
      issues.push({
        path: where,
        code: 'invalid_status',
        message: `${where}: a built-in pathology cannot be requested as new`,
      });
    else if (!builtIn && status !== 'new')
      issues.push({ path: where, code: 'unknown_option', message: `${where}: unknown pathology (request it as new)` });
    else if (!builtIn && normalizeNewPathologyName(key) !== key)
      issues.push({
        path: where,
        code: 'invalid_new_pathology',
        message: `${where}: requested pathology name is not valid`,
      });
  }
  checkOptions(issues, 'sex', criteria.sex, SEX_OPTIONS, ['default', 'selected']);
  checkOptions(issues, 'age_group', criteria.age_group, AGE_GROUP_OPTIONS, ['default', 'selected']);
  checkOptions(issues, 'phases_of_heart_cycle', criteria.phases_of_heart_cycle, PHASE_OPTIONS, ['default', 'selected']);
  if (!(ORIGIN_MODES as readonly string[]).includes(criteria.origin.by))
    issues.push({
      path: 'origin.by',
      code: 'invalid_origin_mode',
      message: 'origin.by: must be location or ethnicity',
    });
  checkOptions(issues, 'origin.location', criteria.origin.location, ORIGIN_LOCATION_OPTIONS, ['default', 'selected']);
  checkOptions(issues, 'origin.ethnicity', criteria.origin.ethnicity, ORIGIN_ETHNICITY_OPTIONS, [
    'default',
    'selected',
  ]);

  const phases = criteria.phases_of_heart_cycle;
  for (const option of PHASE_OPTIONS) {
    if (phases[option.key] !== 'selected') continue;
    for (const implied of option.implies)
      if (phases[implied] !== 'selected')
        issues.push({
          path: `phases_of_heart_cycle.${implied}`,
          code: 'implied_phase_missing',
          message: `phases_of_heart_cycle: ${option.key} implies ${implied}`,
        });
  }

  for (const dimension of BODY_DIMENSIONS) {
    const domain = BODY_DIMENSION_RANGES[dimension];
    const range = criteria.body_dimensions[dimension];
    const where = `body_dimensions.${dimension}`;
    if (!(Number.isFinite(range.min) && Number.isFinite(range.max)) || range.min < domain.min || range.max > domain.max)
      issues.push({
        path: where,
        code: 'range_out_of_domain',
        message: `${where}: must lie within ${domain.min}–${domain.max} ${domain.unit}`,
      });
    else if (!onGrid(range.min, domain.min, domain.step) || !onGrid(range.max, domain.min, domain.step))
      issues.push({
        path: where,
        code: 'range_off_step',
        message: `${where}: must be a multiple of ${domain.step} ${domain.unit}`,
      });
    else if (range.min > range.max)
      issues.push({ path: where, code: 'range_inverted', message: `${where}: min must not exceed max` });
  }
  return issues;
}

/**
 * Returns the criteria with the implications applied: cine_ct selected selects both static phases; the origin
 * map that is not used (`origin.by`) is cleared. Does not fix anything else (use validateCriteria).
 */
export function normalizeCriteria(criteria: CohortCriteria): CohortCriteria {
  const phases: Record<string, OptionStatus> = {};
  for (const [key, status] of Object.entries(criteria.phases_of_heart_cycle))
    if (status !== undefined) phases[key] = status;
  for (const option of PHASE_OPTIONS)
    if (phases[option.key] === 'selected') for (const implied of option.implies) phases[implied] = 'selected';
  return {
    ...criteria,
    phases_of_heart_cycle: phases,
    origin:
      criteria.origin.by === 'location'
        ? { by: 'location', location: criteria.origin.location, ethnicity: {} }
        : { by: 'ethnicity', location: {}, ethnicity: criteria.origin.ethnicity },
  };
}
