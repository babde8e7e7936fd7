import type { OnboardingState } from '@insilico/contracts';
import type { StepFlow } from '../onboarding';

/**
 * Add device (spec §2): the onboarding's steps and saved state under their own routes. There is no
 * company step: the server fills the company in from the selected workspace (onboarding step 4).
 */
export const addDevicePath = '/add-device';

export const addDevicePages = [
  { step: 1, path: '/add-device/create-new', header: 'Body part' },
  { step: 2, path: '/add-device/development-stage', header: 'Development stage' },
  { step: 3, path: '/add-device/device-details', header: 'Device details' },
  { step: 5, path: '/add-device/your-team', header: 'Your team' },
] as const;

export type AddDeviceStep = (typeof addDevicePages)[number]['step'];

export const addDeviceHeaders = addDevicePages.map((page) => page.header);

const indexOf = (step: number) => addDevicePages.findIndex((page) => page.step === step);

/** Where the steps lead; the new workspace (selected by the server) opens at the home. */
export const addDeviceFlow: StepFlow = {
  next: (step) => addDevicePages[indexOf(step) + 1]?.path ?? '/',
  back: (step) => (indexOf(step) > 0 ? addDevicePages[indexOf(step) - 1]!.path : addDevicePath),
  completePath: '/',
};

/** The page of the step the user is on (`stepActive` 4 — the company, given — and later: the team). */
export function addDeviceTarget(state: OnboardingState): string {
  const reached = addDevicePages.filter((page) => mayOpenAddDeviceStep(page.step, state));
  return (reached[reached.length - 1] ?? addDevicePages[0]).path;
}

/** A page opens once reached; the team page needs the company, which the server supplies. */
export function mayOpenAddDeviceStep(step: AddDeviceStep, state: OnboardingState): boolean {
  if (step === 5) return state.stepActive >= 4 && state.yourCompany !== null;
  return step <= state.stepActive;
}
