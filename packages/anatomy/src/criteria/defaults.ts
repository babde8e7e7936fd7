import { BODY_DIMENSION_RANGES, DEFAULT_BODY_PART } from './enumerations';
import type { CohortCriteria } from './types';

/** Criteria of a new draft: body part heart_and_thorax, every option default, every range the full slider domain. */
export function createDefaultCriteria(): CohortCriteria {
  const full = (dimension: keyof typeof BODY_DIMENSION_RANGES): { min: number; max: number } => ({
    min: BODY_DIMENSION_RANGES[dimension].min,
    max: BODY_DIMENSION_RANGES[dimension].max,
  });
  return {
    body_part: DEFAULT_BODY_PART,
    pathology: {},
    sex: {},
    body_dimensions: { height: full('height'), weight: full('weight'), bmi: full('bmi'), bsa: full('bsa') },
    origin: { by: 'location', location: {}, ethnicity: {} },
    age_group: {},
    phases_of_heart_cycle: {},
  };
}
