import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { Onboarding } from '@insilico/contracts';

interface FrameStep {
  path: string;
  step: number;
  title: string;
  description: string;
  load: () => Promise<ComponentType<{ onboarding: Onboarding }>>;
}

/** An onboarding step in its frame; frame and step are loaded on first visit (their own chunks). */
const frameStep = ({ path, step, title, description, load }: FrameStep): RouteObject => ({
  path,
  handle: { title },
  lazy: async () => {
    const [{ OnboardingFrame }, Step] = await Promise.all([import('./components/OnboardingFrame'), load()]);
    return {
      element: (
        <OnboardingFrame step={step} title={title} description={description}>
          {(onboarding) => <Step onboarding={onboarding} />}
        </OnboardingFrame>
      ),
    };
  },
});

export const onboardingRoutes: RouteObject[] = [
  {
    path: 'onboarding/no-access',
    lazy: async () => ({ Component: (await import('./components/NoAccessPage')).NoAccessPage }),
    handle: { title: 'No access yet' },
  },
  frameStep({
    path: 'onboarding/body-part',
    step: 1,
    title: 'Body part',
    description: 'Which part of the body is your device for?',
    load: async () => (await import('./components/BodyPartStep')).BodyPartStep,
  }),
  frameStep({
    path: 'onboarding/development-phase',
    step: 2,
    title: 'Development stage',
    description: 'Where is your device in its development?',
    load: async () => (await import('./components/DevelopmentStageStep')).DevelopmentStageStep,
  }),
  frameStep({
    path: 'onboarding/device-details',
    step: 3,
    title: 'Device details',
    description: 'Name your device and tell us what kind it is.',
    load: async () => (await import('./components/DeviceDetailsStep')).DeviceDetailsStep,
  }),
  frameStep({
    path: 'onboarding/your-company',
    step: 4,
    title: 'Your company',
    description: 'The company that develops the device.',
    load: async () => (await import('./components/CompanyStep')).CompanyStep,
  }),
  frameStep({
    path: 'onboarding/your-team',
    step: 5,
    title: 'Your team',
    description: 'Invite the colleagues who work on the device with you.',
    load: async () => (await import('./components/TeamStep')).TeamStep,
  }),
  {
    path: 'onboarding/complete',
    lazy: async () => ({ Component: (await import('./components/CompletePage')).CompletePage }),
    handle: { title: 'Onboarding complete' },
  },
];

/** The step pages add-device (features/devices) shows in its own frame, loaded on first visit. */
export const loadOnboardingSteps = () => import('./stepPages');
