export { roomRoutes } from './routes';
// The Rooms tab of the project view (mounted by features/projects on /projects/view/rooms).
export { ProjectRoomsTab } from './components/ProjectRoomsTab';
