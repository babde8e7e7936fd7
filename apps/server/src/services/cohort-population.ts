import {
  compileCriteria,
  countMatches,
  defaultPopulation,
  drawStratifiedSample,
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

/** The population a cohort names: its seed and the model version that generates it. */
export interface PopulationSource {
  populationSeed: number;
  modelVersion: string;
}

/**
 * The built-in virtual patient database: the synthetic population of @insilico/anatomy, generated once per
 * process from its seed (≈ 30 ms for 2,000 patients). It draws the patients of new orders, whose records are then
 * stored with the cohort and read from there for ever (docs/decisions/cohort-storage.md); it regenerates a patient
 * only to fill the records of a cohort ordered before they were stored.
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

  /** Whether this server's generator still makes the population a cohort was drawn from. */
  produces(source: PopulationSource): boolean {
    return source.modelVersion === MODEL_VERSION;
  }

  /**
   * The reproducible stratified sample of an order: `size` of the patients matching `criteria`, drawn with
   * `sampleSeed` from the population the cohort names (409 when this server no longer generates it).
   */
  sample(
    cohort: PopulationSource & { criteria: CohortCriteria; size: number; sampleSeed: number },
  ): SyntheticPatient[] {
    if (!this.produces(cohort) || cohort.populationSeed !== this.current().seed)
      throw new ServiceError(
        409,
        'model_version',
        `This cohort was ordered from population model ${cohort.modelVersion}, which this server no longer provides. Please order it again.`,
      );
    return drawStratifiedSample(this.matches(cohort.criteria), cohort.size, cohort.sampleSeed);
  }

  /** Patient `index` of the population a cohort was drawn from, regenerated; null when that model is gone. */
  regenerate(source: PopulationSource, index: number): SyntheticPatient | null {
    if (!this.produces(source)) return null;
    const current = this.current();
    const patient = source.populationSeed === current.seed ? current.patients[index] : undefined;
    return patient ?? generatePatient(source.populationSeed, index);
  }
}
