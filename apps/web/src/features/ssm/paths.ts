/** The three steps of SSM creation (spec §2 "SSM creation has three steps: Patients, Organs, Name") and the end. */
export const ssmSteps = [
  { route: 'new-ssm-select-patient-cohorts', label: 'Patients' },
  { route: 'new-ssm-select-organ-phase', label: 'Organs' },
  { route: 'new-ssm-name-configuration', label: 'Name' },
] as const;
export type SsmStepRoute = (typeof ssmSteps)[number]['route'] | 'new-ssm-complete';

/** A step of SSM creation for a project (the project and its workspace travel in the address). */
export function ssmStepPath(
  route: SsmStepRoute,
  deviceId: string,
  projectId: string,
  extra: Record<string, string> = {},
) {
  return `/projects/create/${route}?${new URLSearchParams({ project: projectId, device: deviceId, ...extra }).toString()}`;
}

/** An SSM's page (the build notification links here too). */
export function ssmPagePath(deviceId: string, projectId: string, ssmId: string): string {
  return `/projects/ssm?${new URLSearchParams({ ssm: ssmId, project: projectId, device: deviceId }).toString()}`;
}

/** The project's SSMs (with New SSM). */
export function ssmListPath(deviceId: string, projectId: string): string {
  return `/projects/ssm?${new URLSearchParams({ project: projectId, device: deviceId }).toString()}`;
}

/** A room's page. */
export function roomPagePath(deviceId: string, projectId: string, roomId: string): string {
  return `/projects/room?project=${projectId}&room=${roomId}&device=${deviceId}`;
}
