import type { ComponentProps, ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { Onboarding } from '@insilico/contracts';
import { loadOnboardingSteps } from '../onboarding';
import type { AddDeviceFrame as Frame } from './components/AddDeviceFrame';

type StepPages = Awaited<ReturnType<typeof loadOnboardingSteps>>;

interface FrameStep {
  path: string;
  step: ComponentProps<typeof Frame>['step'];
  title: string;
  description: string;
  pick: (pages: StepPages) => ComponentType<{ onboarding: Onboarding }>;
}

/** An onboarding step in the add-device frame; frame and step are loaded on first visit (their own chunks). */
const frameStep = ({ path, step, title, description, pick }: FrameStep): RouteObject => ({
  path,
  handle: { title },
  lazy: async () => {
    const [{ AddDeviceFrame }, pages] = await Promise.all([
      import('./components/AddDeviceFrame'),
      loadOnboardingSteps(),
    ]);
    const Step = pick(pages);
    return {
      element: (
        <AddDeviceFrame step={step} title={title} description={description}>
          {(onboarding) => <Step onboarding={onboarding} />}
        </AddDeviceFrame>
      ),
    };
  },
});

export const deviceRoutes: RouteObject[] = [
  {
    path: 'add-device',
    lazy: async () => ({ Component: (await import('./components/AddDevicePage')).AddDevicePage }),
    handle: { title: 'Add device' },
  },
  frameStep({
    path: 'add-device/create-new',
    step: 1,
    title: 'Create a new device',
    description: 'Which part of the body is the new device for?',
    pick: (pages) => pages.BodyPartStep,
  }),
  frameStep({
    path: 'add-device/development-stage',
    step: 2,
    title: 'Development stage',
    description: 'Where is the new device in its development?',
    pick: (pages) => pages.DevelopmentStageStep,
  }),
  frameStep({
    path: 'add-device/device-details',
    step: 3,
    title: 'Device details',
    description: 'Name the new device and tell us what kind it is.',
    pick: (pages) => pages.DeviceDetailsStep,
  }),
  frameStep({
    path: 'add-device/your-team',
    step: 5,
    title: 'Your team',
    description: 'Invite the colleagues who work on the new device.',
    pick: (pages) => pages.TeamStep,
  }),
];
