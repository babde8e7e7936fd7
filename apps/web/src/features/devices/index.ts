export { deviceRoutes } from './routes';
export { devicesKey, selectDevice, selectedDeviceKey, useDevices, useSelectedDevice } from './api';
export { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
