export { analysisRoutes } from './routes';
