export { measurementRoutes } from './routes';
export { measurementUrls } from './api';
