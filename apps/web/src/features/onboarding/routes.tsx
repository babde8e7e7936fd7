import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';

const steps = ['Body part', 'Development stage', 'Device details', 'Your company', 'Your team'] as const;

const step = (path: string, title: string, active: number, upcoming: string[]): RouteObject =>
  placeholderRoute(path, { section: 'Onboarding', title, upcoming, steps: { labels: steps, active } });

export const onboardingRoutes: RouteObject[] = [
  placeholderRoute('onboarding/no-access', {
    section: 'Onboarding',
    title: 'No access yet',
    upcoming: [
      'See whether your access to a device workspace is waiting for an admin’s approval.',
      'Start your own device workspace instead.',
    ],
  }),
  step('onboarding/body-part', 'Body part', 0, ['Choose the body part your device is for (heart and thorax for now).']),
  step('onboarding/development-phase', 'Development stage', 1, ['Choose your device’s development stage.']),
  step('onboarding/device-details', 'Device details', 2, ['Name your device, add a picture and choose its type.']),
  step('onboarding/your-company', 'Your company', 3, ['Enter your company’s name and address.']),
  step('onboarding/your-team', 'Your team', 4, ['Invite your colleagues to the device workspace.']),
  step('onboarding/complete', 'Onboarding complete', steps.length, [
    'A short countdown, then straight into your new workspace.',
  ]),
];
