/**
 * Where a project opens: its Stats tab (or another tab), the project named in the query string, and its workspace
 * when the link must work whichever workspace is selected (`device`).
 */
export function projectViewPath(
  projectId: string,
  tab: 'stats' | 'rooms' | 'comments' = 'stats',
  deviceId: string | null = null,
): string {
  const query = new URLSearchParams({ project: projectId });
  if (deviceId) query.set('device', deviceId);
  return `/projects/view/${tab}?${query.toString()}`;
}

export const createProjectPath = '/projects/create/title';
