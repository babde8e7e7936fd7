import {
  compileCriteria,
  countMatches,
  defaultPopulation,
  generatePatient,
  MODEL_VERSION,
  normalizeCriteria,
  validateCriteria,
  type CohortCriteria,
  type SyntheticPatient,
  type SyntheticPopulation,
} from '@insilico/anatomy';
import type { CohortCriteriaBody } from '@insilico/contracts';
import { ServiceError } from './errors';

/**
 * The built-in virtual patient database: the synthetic population of @insilico/anatomy, generated once per
 * process from its seed (≈ 30 ms for 2,000 patients), never stored. Cohorts keep the seed, size and model
 * version they were drawn from, so a patient is regenerated from (seed, index) on every read.
 */
export class VirtualPatientDatabase {
  private population: SyntheticPopulation | null = null;

  /** The population new orders draw from. */
  current(): SyntheticPopulation {
    this.population ??= defaultPopulation();
    return this.population;
  }

  /** Checks criteria (shape already checked by the contract) against the options of spec §3; 400 with every issue. */
  criteria(body: CohortCriteriaBody): CohortCriteria {
    const criteria = normalizeCriteria(body as CohortCriteria);
    const issues = validateCriteria(criteria);
    if (issues.length > 0)
      throw new ServiceError(
        400,
        'invalid_criteria',
        `These criteria cannot be used: ${issues.map((issue) => issue.message).join('; ')}.`,
        issues,
      );
    return criteria;
  }

  count(criteria: CohortCriteria): number {
    return countMatches(this.current().patients, criteria);
  }

  matches(criteria: CohortCriteria): SyntheticPatient[] {
    const predicate = compileCriteria(criteria);
    return this.current().patients.filter(predicate);
  }

  /** Regenerates patient `index` of the population a cohort was drawn from. */
  patient(source: { populationSeed: number; modelVersion: string }, index: number): SyntheticPatient {
    if (source.modelVersion !== MODEL_VERSION)
      throw new ServiceError(
        409,
        'model_version',
        `This cohort was drawn from population model ${source.modelVersion}, which this server no longer provides.`,
      );
    const current = this.current();
    const patient = source.populationSeed === current.seed ? current.patients[index] : undefined;
    return patient ?? generatePatient(source.populationSeed, index);
  }
}
