export { measurementRoutes } from './routes';
export { measurementUrls } from './api';
// For the SSM page (issue 18 item 8): the spec's message where the workspace's plan lacks measurements.
export { MeasurementsGate } from './components/MeasurementsGate';
