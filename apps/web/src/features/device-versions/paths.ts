/** The page listing a workspace's device versions (docs/decisions/device-versions-page.md). */
export const deviceVersionsPath = '/device-versions';

/** The page with one version highlighted (the notification's link has the same form). */
export function deviceVersionPath(versionId: string): string {
  return `${deviceVersionsPath}?version=${versionId}`;
}

/** The page creating a version outside a project (the wizard mounts the same form). */
export const newDeviceVersionPath = `${deviceVersionsPath}/new`;
