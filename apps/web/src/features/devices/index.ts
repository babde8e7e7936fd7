export { deviceRoutes } from './routes';
export { devicesKey, selectedDeviceKey, useDevices, useSelectedDevice } from './api';
