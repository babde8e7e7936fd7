export { deviceRoutes } from './routes';
