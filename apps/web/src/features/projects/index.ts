export { projectRoutes } from './routes';
// For other features: the workspace's projects (e.g. the wizard's "from a previous project") and where one opens.
export { useProjects, useProject, type ProjectListFilter } from './api';
export { projectViewPath } from './paths';
