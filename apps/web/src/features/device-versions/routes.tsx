import type { RouteObject } from 'react-router';

export const deviceVersionRoutes: RouteObject[] = [
  {
    path: 'device-versions',
    lazy: async () => ({ Component: (await import('./components/DeviceVersionsPage')).DeviceVersionsPage }),
    handle: { title: 'Device versions' },
  },
  {
    path: 'device-versions/new',
    lazy: async () => ({ Component: (await import('./components/NewDeviceVersionPage')).NewDeviceVersionPage }),
    handle: { title: 'New device version' },
  },
];
