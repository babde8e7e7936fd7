/** Where a project opens: its Stats tab, the project named in the query string. */
export const projectViewPath = (projectId: string, tab: 'stats' | 'rooms' | 'comments' = 'stats') =>
  `/projects/view/${tab}?project=${encodeURIComponent(projectId)}`;

export const createProjectPath = '/projects/create/title';
