/** The spec's minimum number of patients for a statistical analysis (spec §5, §9). */
export const MIN_PATIENTS = 20;

/** Thrown when an analysis is asked of fewer than {@link MIN_PATIENTS} patients (spec §5). */
export class InsufficientPatientsError extends Error {
  override readonly name = 'InsufficientPatientsError';
  readonly code = 'insufficient_patients';
  constructor(
    readonly patients: number,
    readonly minimum: number = MIN_PATIENTS,
  ) {
    super(`Statistical analysis needs at least ${minimum} patients.`);
  }
}

/** Thrown when the input of a statistics function is malformed (shape, non-finite value, bad option). */
export class StatsInputError extends Error {
  override readonly name = 'StatsInputError';
  readonly code = 'invalid_statistics_input';
}

/**
 * Refuses an analysis of fewer than 20 patients (spec §5 "Statistical analysis needs at least 20 patients").
 * @throws InsufficientPatientsError when `patients` < 20.
 */
export function assertEnoughPatients(patients: number): void {
  if (!(patients >= MIN_PATIENTS)) throw new InsufficientPatientsError(patients);
}
