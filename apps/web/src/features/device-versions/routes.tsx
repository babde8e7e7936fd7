import type { RouteObject } from 'react-router';
import { DeviceVersionsPage } from './components/DeviceVersionsPage';
import { NewDeviceVersionPage } from './components/NewDeviceVersionPage';

export const deviceVersionRoutes: RouteObject[] = [
  { path: 'device-versions', element: <DeviceVersionsPage />, handle: { title: 'Device versions' } },
  { path: 'device-versions/new', element: <NewDeviceVersionPage />, handle: { title: 'New device version' } },
];
