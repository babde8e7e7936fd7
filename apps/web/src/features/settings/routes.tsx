import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';
import { CompanyInfoPage } from './components/CompanyInfoPage';
import { ManageDevicePage } from './components/ManageDevicePage';
import { MyAccountPage } from './components/MyAccountPage';

export const settingsRoutes: RouteObject[] = [
  { path: 'my-account', element: <MyAccountPage />, handle: { title: 'My account' } },
  { path: 'manage-device', element: <ManageDevicePage />, handle: { title: 'Manage device' } },
  { path: 'company-info', element: <CompanyInfoPage />, handle: { title: 'Company info' } },
  placeholderRoute('help', {
    section: 'Settings',
    title: 'Help',
    description: 'Questions about the workspace or a simulation? We are here to help.',
    upcoming: ['Chat with support from any page.', 'Write to support by e-mail.'],
  }),
  placeholderRoute('subscriptions', {
    section: 'Settings',
    title: 'Subscriptions',
    upcoming: ['See and manage your workspace subscription.'],
  }),
];
