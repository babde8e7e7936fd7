import type { AgeGroup, OriginEthnicity, OriginLocation, Phase, Sex } from '../criteria/enumerations';
import { AGE_GROUP_OPTIONS } from '../criteria/enumerations';
import type { BodySizeGroup } from './bodySize';

/**
 * Demographic mix of the synthetic database (all our assumptions, chosen for a CT device-testing registry
 * rather than a census; see docs/validation.md). Only enabled options of spec §3 are ever generated.
 */

/** Probability that a patient is female. */
export const FEMALE_PROBABILITY = 0.5;

/** Age in completed years: uniform integers on each band, band chosen with `probability`. */
export const AGE_BANDS = [
  { minAge_years: 18, maxAge_years: 64, probability: 0.55 },
  { minAge_years: 65, maxAge_years: 90, probability: 0.45 },
] as const;

/** Probability of each (enabled) location. */
export const LOCATION_PROBABILITIES = [
  { key: 'europe', probability: 0.4 },
  { key: 'north_south_america', probability: 0.35 },
  { key: 'asia_pacific', probability: 0.25 },
] as const satisfies readonly { key: OriginLocation; probability: number }[];

/** Probability that a patient is asian (otherwise white) given the location. */
export const ASIAN_PROBABILITY_BY_LOCATION: Readonly<
  Record<'europe' | 'north_south_america' | 'asia_pacific', number>
> = {
  europe: 0.05,
  north_south_america: 0.15,
  asia_pacific: 0.85,
};

/** Phase sets available per patient with their probabilities; cine_ct always comes with both static phases. */
export const PHASE_SETS = [
  { phases: ['end-systole', 'end-diastole', 'cine_ct'], probability: 0.4 },
  { phases: ['end-systole', 'end-diastole'], probability: 0.25 },
  { phases: ['end-systole'], probability: 0.15 },
  { phases: ['end-diastole'], probability: 0.2 },
] as const satisfies readonly { phases: readonly Phase[]; probability: number }[];

/** Body-size reference group of an origin (white in Asia-Pacific uses the European reference; assumption). */
export function bodySizeGroup(location: OriginLocation, ethnicity: OriginEthnicity): BodySizeGroup {
  if (ethnicity === 'asian') return 'asian';
  return location === 'north_south_america' ? 'white_americas' : 'white_europe';
}

/** Age groups (spec §9) an age in years belongs to; overlapping groups are all returned, in option order. */
export function ageGroupsOf(age_years: number): AgeGroup[] {
  return AGE_GROUP_OPTIONS.filter(
    (group) => age_years >= group.minAge_years && (group.maxAge_years === null || age_years <= group.maxAge_years),
  ).map((group) => group.key);
}

/** Picks the index of a category from cumulative sampling of `probabilities` with uniform u in [0, 1). */
export function pickCategory(probabilities: readonly number[], u: number): number {
  let cumulative = 0;
  for (let i = 0; i < probabilities.length; i += 1) {
    cumulative += probabilities[i] ?? 0;
    if (u < cumulative) return i;
  }
  return probabilities.length - 1;
}

/** Sex of a patient from a uniform u in [0, 1). */
export function sexFromUniform(u: number): Sex {
  return u < FEMALE_PROBABILITY ? 'female' : 'male';
}
