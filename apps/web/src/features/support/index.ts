export { supportRoutes } from './routes';
export { SupportMenu } from './components/SupportMenu';
export { YourRequests } from './components/YourRequests';
export { useAskSupport } from './useAskSupport';
export { useSupportContext } from './api';
