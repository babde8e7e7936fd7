export { ssmRoutes, ssmCreationRoutes } from './routes';
// For other features: where an SSM and its creation open.
export { ssmListPath, ssmPagePath, ssmStepPath } from './paths';
// For the rooms' New room dialog: the project's SSMs (a room is created on a patient or an SSM).
export { useSsms } from './api';
