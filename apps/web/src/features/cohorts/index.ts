export { cohortRoutes } from './routes';
