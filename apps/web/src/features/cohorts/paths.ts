/** Paths of the cohort pages (the server's cohort-ready notification links to `cohortPath`). */
export const cohortListPath = '/patient-cohort';
export const createPath = '/patient-cohort/create';
export const orderPath = '/patient-cohort/order-patient';

export function cohortPath(deviceId: string, cohortId: string): string {
  return `/patient-cohort/cohorts/${cohortId}?device=${deviceId}`;
}

export function patientPath(deviceId: string, cohortId: string, patientId: string): string {
  return `/patient-cohort/cohorts/${cohortId}/patients/${patientId}?device=${deviceId}`;
}

/** The measurement pages (issue 23; features/measurements reads `device` and `cohort` from the query). */
export const measurementsPath = '/measurement/select-patient-cohort';
export function measureCohortPath(deviceId: string, cohortId: string): string {
  return `/measurement/define?${new URLSearchParams({ device: deviceId, cohort: cohortId }).toString()}`;
}
