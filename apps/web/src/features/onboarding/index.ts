export { onboardingRoutes } from './routes';
export { onboardingKey, useOnboarding } from './api';
export { onboardingTarget } from './steps';
