export { measurementRoutes } from './routes';
export { measurementUrls } from './api';
// For the SSM page (issue 18 item 8): the spec's message where the workspace's plan lacks measurements.
export { MeasurementsGate } from './components/MeasurementsGate';
// For the SSM page: measurements ordered on the model's mean and named instances start here.
export { measureShapesPath } from './flow';
