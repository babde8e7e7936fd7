import {
  compileCriteria,
  countMatches,
  defaultPopulation,
  drawStratifiedSample,
  generatePatient,
  isModelVersion,
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

  /** The built-in population under a kept model version (the current one is cached here, earlier ones by anatomy). */
  private populationOf(source: PopulationSource): SyntheticPopulation | null {
    if (!this.produces(source)) return null;
    const current = this.current();
    if (source.populationSeed !== current.seed) return null;
    return source.modelVersion === current.modelVersion ? current : defaultPopulation(source.modelVersion);
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

  /** Whether this server's generator still makes the population a cohort was drawn from (any kept version). */
  produces(source: PopulationSource): boolean {
    return isModelVersion(source.modelVersion);
  }

  /**
   * The reproducible stratified sample of an order: `size` of the patients matching `criteria`, drawn with
   * `sampleSeed` from the population the cohort names (409 when this server no longer generates it). New orders
   * name the current model; an order left undrawn by an older server is drawn from the model it names.
   */
  sample(
    cohort: PopulationSource & { criteria: CohortCriteria; size: number; sampleSeed: number },
  ): SyntheticPatient[] {
    const population = this.populationOf(cohort);
    if (population === null)
      throw new ServiceError(
        409,
        'model_version',
        `This cohort was ordered from population model ${cohort.modelVersion}, which this server no longer provides. Please order it again.`,
      );
    const predicate = compileCriteria(cohort.criteria);
    return drawStratifiedSample(population.patients.filter(predicate), cohort.size, cohort.sampleSeed);
  }

  /**
   * Patient `index` of the population a cohort was drawn from, regenerated under the model version the cohort
   * names; null when this server no longer produces that version.
   */
  regenerate(source: PopulationSource, index: number): SyntheticPatient | null {
    if (!this.produces(source)) return null;
    return (
      this.populationOf(source)?.patients[index] ?? generatePatient(source.populationSeed, index, source.modelVersion)
    );
  }
}
