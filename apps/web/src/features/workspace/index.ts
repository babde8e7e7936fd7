export { workspaceRoutes } from './routes';
