import type { RouteObject } from 'react-router';

export const settingsRoutes: RouteObject[] = [
  {
    path: 'my-account',
    lazy: async () => ({ Component: (await import('./components/MyAccountPage')).MyAccountPage }),
    handle: { title: 'My account' },
  },
  {
    path: 'manage-device',
    lazy: async () => ({ Component: (await import('./components/ManageDevicePage')).ManageDevicePage }),
    handle: { title: 'Manage device' },
  },
  {
    path: 'company-info',
    lazy: async () => ({ Component: (await import('./components/CompanyInfoPage')).CompanyInfoPage }),
    handle: { title: 'Company info' },
  },
  {
    path: 'help',
    lazy: async () => ({ Component: (await import('./components/HelpPage')).HelpPage }),
    handle: { title: 'Help' },
  },
  {
    path: 'subscriptions',
    lazy: async () => ({ Component: (await import('./components/SubscriptionsPage')).SubscriptionsPage }),
    handle: { title: 'Subscriptions' },
  },
];
