import type { RouteObject } from 'react-router';
import { BodyPartStep, DevelopmentStageStep, DeviceDetailsStep, TeamStep } from '../onboarding';
import { AddDeviceFrame } from './components/AddDeviceFrame';
import { AddDevicePage } from './components/AddDevicePage';

export const deviceRoutes: RouteObject[] = [
  { path: 'add-device', element: <AddDevicePage />, handle: { title: 'Add device' } },
  {
    path: 'add-device/create-new',
    handle: { title: 'Create a new device' },
    element: (
      <AddDeviceFrame step={1} title="Create a new device" description="Which part of the body is the new device for?">
        {(onboarding) => <BodyPartStep onboarding={onboarding} />}
      </AddDeviceFrame>
    ),
  },
  {
    path: 'add-device/development-stage',
    handle: { title: 'Development stage' },
    element: (
      <AddDeviceFrame step={2} title="Development stage" description="Where is the new device in its development?">
        {(onboarding) => <DevelopmentStageStep onboarding={onboarding} />}
      </AddDeviceFrame>
    ),
  },
  {
    path: 'add-device/device-details',
    handle: { title: 'Device details' },
    element: (
      <AddDeviceFrame step={3} title="Device details" description="Name the new device and tell us what kind it is.">
        {(onboarding) => <DeviceDetailsStep onboarding={onboarding} />}
      </AddDeviceFrame>
    ),
  },
  {
    path: 'add-device/your-team',
    handle: { title: 'Your team' },
    element: (
      <AddDeviceFrame step={5} title="Your team" description="Invite the colleagues who work on the new device.">
        {(onboarding) => <TeamStep onboarding={onboarding} />}
      </AddDeviceFrame>
    ),
  },
];
