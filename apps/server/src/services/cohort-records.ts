import {
  AGE_GROUP_OPTIONS,
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  PARAMETER_DEFINITIONS,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  SEX_OPTIONS,
  type SyntheticPatient,
} from '@insilico/anatomy';
import { patientIdPattern } from '@insilico/contracts';
import { z } from 'zod';
import type {
  CohortRepository,
  CohortRow,
  NewStoredPatient,
  StoredPatientRow,
} from '../repositories/cohort.repository';
import type { PopulationSource, VirtualPatientDatabase } from './cohort-population';
import { ServiceError } from './errors';

/**
 * The stored patient records of cohorts (docs/decisions/cohort-storage.md): what an order writes, how a read
 * turns a stored record back into a patient, and the one-off fill of cohorts ordered before records were stored.
 */

const keysOf = <T extends { key: string }>(options: readonly T[]) =>
  options.map((option) => option.key) as [T['key'], ...T['key'][]];

const numbersOf = (group: 'body' | 'cardiac') =>
  Object.fromEntries(
    PARAMETER_DEFINITIONS.filter((definition) => definition.group === group).map((definition) => [
      definition.key,
      z.number(),
    ]),
  );

/**
 * What every reader needs of a stored record (the patient table, page, CSV, parameter table, meshes). Loose
 * objects: whatever else the record holds is kept as it was stored.
 */
const storedRecordSchema = z.looseObject({
  id: z.string().regex(patientIdPattern),
  synthetic: z.literal(true),
  index: z.number().int().nonnegative(),
  sex: z.enum(keysOf(SEX_OPTIONS)),
  age_years: z.number(),
  ageGroups: z.array(z.enum(keysOf(AGE_GROUP_OPTIONS))),
  originLocation: z.enum(keysOf(ORIGIN_LOCATION_OPTIONS)),
  originEthnicity: z.enum(keysOf(ORIGIN_ETHNICITY_OPTIONS)),
  body: z.looseObject(numbersOf('body')),
  pathologies: z.array(z.enum(keysOf(PATHOLOGY_OPTIONS))),
  phases: z.array(z.enum(keysOf(PHASE_OPTIONS))),
  cardiac: z.looseObject({ ...numbersOf('cardiac'), lvHypertrophy: z.boolean() }),
  meshSeed: z.number().int().nonnegative(),
});

/** A drawn patient as it is stored: the generator's whole record (doubles survive JSON exactly). */
export function toStoredPatient(patient: SyntheticPatient): NewStoredPatient {
  return {
    patientIndex: patient.index,
    patientId: patient.id,
    record: patient as unknown as Record<string, unknown>,
  };
}

/** The refusal of a cohort whose patients cannot be read (kept for the record, never shown as other patients). */
function unreadable(cohort: CohortRow, why: string): ServiceError {
  return new ServiceError(409, 'cohort_unreadable', `The patients of cohort ${cohort.name} cannot be read: ${why}`, {
    modelVersion: cohort.modelVersion,
  });
}

/** A stored patient as the readers use it; 409 when its record is missing or not a patient record. */
export function storedPatient(cohort: CohortRow, row: StoredPatientRow): SyntheticPatient {
  if (row.record === null)
    throw unreadable(
      cohort,
      `they were drawn from population model ${cohort.modelVersion}, which this server can no longer produce, and were not stored when the cohort was ordered.`,
    );
  const parsed = storedRecordSchema.safeParse(row.record);
  if (!parsed.success || parsed.data.id !== row.patientId)
    throw unreadable(cohort, `the stored record of patient ${row.patientId} is incomplete.`);
  // The schema checks every field a reader uses; the rest of the record is the generator's, as stored.
  return parsed.data as unknown as SyntheticPatient;
}

/** What the fill at start-up did. */
export interface RecordFill {
  /** Cohorts whose missing records were regenerated and stored. */
  filled: number;
  /** Cohorts whose model this server no longer produces: they stay unreadable (409). */
  unreadable: string[];
}

/**
 * Fills the records of cohorts ordered before records were stored (migration 0007): each patient is regenerated
 * once under the model version the cohort was ordered with, when this server still produces it. Idempotent and
 * safe to run from several processes at once (a stored record is never replaced).
 */
export async function storeMissingRecords(
  repository: CohortRepository,
  database: VirtualPatientDatabase,
): Promise<RecordFill> {
  const result: RecordFill = { filled: 0, unreadable: [] };
  for (const cohort of await repository.withMissingRecords()) {
    const source: PopulationSource = cohort;
    if (!database.produces(source)) {
      result.unreadable.push(cohort.id);
      continue;
    }
    const missing = (await repository.patients(cohort.id)).filter((row) => row.record === null);
    const patients = missing.map((row) => database.regenerate(source, row.patientIndex));
    // A patient that regenerates under another id is not the one ordered: store nothing, the cohort stays unreadable.
    if (patients.some((patient, i) => patient?.id !== missing[i]?.patientId)) {
      result.unreadable.push(cohort.id);
      continue;
    }
    await repository.fillMissingRecords(
      cohort.id,
      patients.flatMap((patient) => (patient ? [toStoredPatient(patient)] : [])),
    );
    result.filled += 1;
  }
  return result;
}
