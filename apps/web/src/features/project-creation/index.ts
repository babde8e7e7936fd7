// The project creation wizard (issue 5 item 1): /projects/create/*.
export { projectCreationRoutes } from './routes';
