import type { RouteObject } from 'react-router';
import { BodyPartStep } from './components/BodyPartStep';
import { CompanyStep } from './components/CompanyStep';
import { CompletePage } from './components/CompletePage';
import { DevelopmentStageStep } from './components/DevelopmentStageStep';
import { DeviceDetailsStep } from './components/DeviceDetailsStep';
import { NoAccessPage } from './components/NoAccessPage';
import { OnboardingFrame } from './components/OnboardingFrame';
import { TeamStep } from './components/TeamStep';

export const onboardingRoutes: RouteObject[] = [
  { path: 'onboarding/no-access', element: <NoAccessPage />, handle: { title: 'No access yet' } },
  {
    path: 'onboarding/body-part',
    handle: { title: 'Body part' },
    element: (
      <OnboardingFrame step={1} title="Body part" description="Which part of the body is your device for?">
        {(onboarding) => <BodyPartStep onboarding={onboarding} />}
      </OnboardingFrame>
    ),
  },
  {
    path: 'onboarding/development-phase',
    handle: { title: 'Development stage' },
    element: (
      <OnboardingFrame step={2} title="Development stage" description="Where is your device in its development?">
        {(onboarding) => <DevelopmentStageStep onboarding={onboarding} />}
      </OnboardingFrame>
    ),
  },
  {
    path: 'onboarding/device-details',
    handle: { title: 'Device details' },
    element: (
      <OnboardingFrame step={3} title="Device details" description="Name your device and tell us what kind it is.">
        {(onboarding) => <DeviceDetailsStep onboarding={onboarding} />}
      </OnboardingFrame>
    ),
  },
  {
    path: 'onboarding/your-company',
    handle: { title: 'Your company' },
    element: (
      <OnboardingFrame step={4} title="Your company" description="The company that develops the device.">
        {(onboarding) => <CompanyStep onboarding={onboarding} />}
      </OnboardingFrame>
    ),
  },
  {
    path: 'onboarding/your-team',
    handle: { title: 'Your team' },
    element: (
      <OnboardingFrame step={5} title="Your team" description="Invite the colleagues who work on the device with you.">
        {(onboarding) => <TeamStep onboarding={onboarding} />}
      </OnboardingFrame>
    ),
  },
  { path: 'onboarding/complete', element: <CompletePage />, handle: { title: 'Onboarding complete' } },
];
