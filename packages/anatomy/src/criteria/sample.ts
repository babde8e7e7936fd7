import type { SyntheticPatient } from '../population/types';
import { deriveSeed, seedFromString } from '../random/seed';
import { Xoshiro128 } from '../random/xoshiro128';

/** Thrown when fewer patients match than the cohort size asked; the order is refused up front. */
export class InsufficientMatchesError extends Error {
  readonly matching: number;
  readonly requested: number;
  constructor(matching: number, requested: number) {
    super(`Only ${matching} patient${matching === 1 ? '' : 's'} match these criteria; ${requested} were requested.`);
    this.name = 'InsufficientMatchesError';
    this.matching = matching;
    this.requested = requested;
  }
}

/** Random stream of the cohort sample. */
const STREAM_SAMPLE = 3;

/** Age band used for stratification, years. */
function ageBand(age_years: number): string {
  if (age_years < 45) return '18-44';
  if (age_years < 65) return '45-64';
  return '65+';
}

/** Stratum of a patient for sampling: sex × age band (18–44, 45–64, 65+) × origin location. */
export function stratumOf(patient: SyntheticPatient): string {
  return `${patient.sex}|${ageBand(patient.age_years)}|${patient.originLocation}`;
}

/** Stratum sizes of a sample: proportional allocation with largest remainders (ties: stratum key order). */
export function allocateProportionally(stratumSizes: ReadonlyMap<string, number>, size: number): Map<string, number> {
  const total = [...stratumSizes.values()].reduce((sum, n) => sum + n, 0);
  const keys = [...stratumSizes.keys()].sort();
  const allocation = new Map<string, number>();
  const remainders: { key: string; fraction: number }[] = [];
  let allocated = 0;
  for (const key of keys) {
    const n = stratumSizes.get(key) ?? 0;
    // Integer arithmetic for the quota: floor(size·n/total) and its remainder, no rounding error.
    const whole = Math.floor((size * n) / total);
    allocation.set(key, whole);
    allocated += whole;
    remainders.push({ key, fraction: size * n - whole * total });
  }
  remainders.sort((a, b) => b.fraction - a.fraction || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; allocated < size && i < remainders.length; i += 1) {
    const entry = remainders[i];
    if (entry === undefined) break;
    allocation.set(entry.key, (allocation.get(entry.key) ?? 0) + 1);
    allocated += 1;
  }
  return allocation;
}

/**
 * Draws a reproducible stratified random sample of `size` patients from `matches` (the patients matching a
 * cohort's criteria): strata by sex × age band × location, proportional allocation, then a seeded partial
 * Fisher–Yates within each stratum. The result depends only on the set of matches (not their order), `size` and
 * `seed` (uint32 or text, e.g. the cohort id); it is returned sorted by id.
 * Throws InsufficientMatchesError when fewer than `size` match.
 */
export function drawStratifiedSample(
  matches: readonly SyntheticPatient[],
  size: number,
  seed: number | string,
): SyntheticPatient[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`sample size must be a positive integer: ${size}`);
  if (matches.length < size) throw new InsufficientMatchesError(matches.length, size);
  const numericSeed = typeof seed === 'string' ? seedFromString(seed) : seed >>> 0;

  const sorted = [...matches].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 1; i < sorted.length; i += 1)
    if (sorted[i]?.id === sorted[i - 1]?.id) throw new Error(`duplicate patient id in matches: ${sorted[i]?.id}`);

  const strata = new Map<string, SyntheticPatient[]>();
  for (const patient of sorted) {
    const key = stratumOf(patient);
    const members = strata.get(key);
    if (members) members.push(patient);
    else strata.set(key, [patient]);
  }
  const sizes = new Map<string, number>([...strata].map(([key, members]) => [key, members.length]));
  const allocation = allocateProportionally(sizes, size);

  const sample: SyntheticPatient[] = [];
  for (const [key, quota] of allocation) {
    const members = [...(strata.get(key) ?? [])];
    const rng = new Xoshiro128(deriveSeed(numericSeed, STREAM_SAMPLE, seedFromString(key)));
    for (let i = 0; i < quota; i += 1) {
      const j = i + rng.nextInt(members.length - i);
      const chosen = members[j];
      const current = members[i];
      if (chosen === undefined || current === undefined) break;
      members[j] = current;
      members[i] = chosen;
      sample.push(chosen);
    }
  }
  return sample.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
