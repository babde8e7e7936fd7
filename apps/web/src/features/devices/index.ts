export { deviceRoutes } from './routes';
export { devicesKey, preloadWorkspaces, selectDevice, selectedDeviceKey, useDevices, useSelectedDevice } from './api';
export { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
