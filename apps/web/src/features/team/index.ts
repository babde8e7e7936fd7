export { teamRoutes } from './routes';
