import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';
import { MyAccountPage } from './components/MyAccountPage';

export const settingsRoutes: RouteObject[] = [
  { path: 'my-account', element: <MyAccountPage />, handle: { title: 'My account' } },
  placeholderRoute('help', {
    section: 'Settings',
    title: 'Help',
    description: 'Questions about the workspace or a simulation? We are here to help.',
    upcoming: ['Chat with support from any page.', 'Write to support by e-mail.'],
  }),
  placeholderRoute('company-info', {
    section: 'Settings',
    title: 'Company info',
    upcoming: ['Edit your company’s name and address (country, state, street address, city and zip code).'],
  }),
  placeholderRoute('subscriptions', {
    section: 'Settings',
    title: 'Subscriptions',
    upcoming: ['See and manage your workspace subscription.'],
  }),
];
