import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';

const addDeviceSteps = ['Create new', 'Development stage', 'Device details', 'Your team'] as const;

const addDevice = (path: string, title: string, active: number, upcoming: string[]): RouteObject =>
  placeholderRoute(path, { section: 'Add device', title, upcoming, steps: { labels: addDeviceSteps, active } });

export const deviceRoutes: RouteObject[] = [
  placeholderRoute('manage-device', {
    section: 'Settings',
    title: 'Manage device',
    upcoming: [
      'Edit the device name, picture, type and development stages.',
      'See who has access to the device workspace.',
    ],
  }),
  addDevice('add-device', 'Add device', 0, ['Add another device workspace to your account.']),
  addDevice('add-device/create-new', 'Create a new device', 0, ['Name the new device and upload its picture.']),
  addDevice('add-device/development-stage', 'Development stage', 1, [
    'Choose the development stage: concept and design feasibility or clinical trial (animal testing is not available).',
  ]),
  addDevice('add-device/device-details', 'Device details', 2, [
    'Choose the device type, or describe it when it is none of the listed types.',
  ]),
  addDevice('add-device/your-team', 'Your team', 3, ['Invite colleagues to the new device workspace.']),
];
