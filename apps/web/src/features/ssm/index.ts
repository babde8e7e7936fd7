export { ssmRoutes, ssmCreationRoutes } from './routes';
// For other features: where an SSM and its creation open.
export { ssmListPath, ssmPagePath, ssmStepPath } from './paths';
