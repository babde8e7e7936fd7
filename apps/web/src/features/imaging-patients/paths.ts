/** The page of a patient of a project's imaging cohort (issue 19). */
export function imagingPatientPath(deviceId: string, projectId: string, datasetId: string, patientId: string): string {
  const query = new URLSearchParams({ project: projectId, dataset: datasetId, patient: patientId, device: deviceId });
  return `/projects/imaging-patient?${query.toString()}`;
}
