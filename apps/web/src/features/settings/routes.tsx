import type { RouteObject } from 'react-router';
import { CompanyInfoPage } from './components/CompanyInfoPage';
import { HelpPage } from './components/HelpPage';
import { ManageDevicePage } from './components/ManageDevicePage';
import { MyAccountPage } from './components/MyAccountPage';
import { SubscriptionsPage } from './components/SubscriptionsPage';

export const settingsRoutes: RouteObject[] = [
  { path: 'my-account', element: <MyAccountPage />, handle: { title: 'My account' } },
  { path: 'manage-device', element: <ManageDevicePage />, handle: { title: 'Manage device' } },
  { path: 'company-info', element: <CompanyInfoPage />, handle: { title: 'Company info' } },
  { path: 'help', element: <HelpPage />, handle: { title: 'Help' } },
  { path: 'subscriptions', element: <SubscriptionsPage />, handle: { title: 'Subscriptions' } },
];
