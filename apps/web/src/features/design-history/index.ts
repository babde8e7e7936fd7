export { designHistoryRoutes } from './routes';
