export { trialRoutes } from './routes';
export { ProjectTrials } from './components/ProjectTrials';
export { fetchTrialOutcomes, trialUrls } from './api';
