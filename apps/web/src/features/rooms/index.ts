export { roomRoutes, projectRoomsTab } from './routes';
