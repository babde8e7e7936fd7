export { measurementRoutes } from './routes';
