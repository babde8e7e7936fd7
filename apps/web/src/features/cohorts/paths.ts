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
