import {
  companyProblem,
  companySchema,
  deviceInfoProblem,
  deviceInfoSchema,
  developmentStagesProblem,
  onboardingStepCount,
  onboardingSteps,
  teamInviteeSchema,
  unitedStatesCode,
  type BodyPart,
  type Company,
  type DevelopmentStage,
  type DeviceInfo,
  type DeviceType,
  type MemberRole,
  type Onboarding,
} from '@insilico/contracts';

/** The five headers of the stepper (spec §2); the sixth step is the countdown page. */
export const stepperHeaders = onboardingSteps.slice(0, 5).map((step) => step.header);

export const noAccessPath = '/onboarding/no-access';
export const completePath = '/onboarding/complete';

/** The path of a step (1–6). */
export function pathOfStep(step: number): string {
  const clamped = Math.min(Math.max(Math.trunc(step), 1), onboardingStepCount);
  return onboardingSteps[clamped - 1]!.path;
}

/** The step (1–6) a path belongs to, or null. */
export function stepOfPath(pathname: string): number | null {
  return onboardingSteps.find((step) => step.path === pathname)?.step ?? null;
}

/**
 * Where a user belongs who has no workspace to open: the step they are on, or /onboarding/no-access
 * when they may not create one. Step 6 means "team saved, workspace not made yet" (the completion
 * failed or was interrupted): back to the team step, whose Finish completes it.
 */
export function onboardingTarget(onboarding: Onboarding): string {
  if (!onboarding.mayCreateWorkspace && onboarding.workspaceCount === 0) return noAccessPath;
  const step = Math.min(onboarding.state.stepActive, onboardingStepCount - 1);
  return pathOfStep(step);
}

/** Whether a step page may be shown: only steps the user has reached (earlier ones via Back). */
export function mayOpenStep(step: number, onboarding: Onboarding): boolean {
  return step <= Math.min(onboarding.state.stepActive, onboardingStepCount - 1);
}

export { labelOf } from '../../lib/labels';

// Client-side checks: the same schemas and rules the server applies (contracts), for comfort only.

export function bodyPartError(part: BodyPart | null): string | null {
  return part === null ? 'Choose the body part your device is for.' : null;
}

export function developmentStagesError(stages: readonly DevelopmentStage[]): string | null {
  return developmentStagesProblem(stages);
}

export interface DeviceDetailsForm {
  deviceName: string;
  deviceType: DeviceType | '';
  deviceTypeOther: string;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** The device details as the server wants them, or the message for each field that is not right. */
export function checkDeviceDetails(
  form: DeviceDetailsForm,
): { ok: true; value: DeviceInfo } | { ok: false; errors: FieldErrors<keyof DeviceDetailsForm> } {
  const errors: FieldErrors<keyof DeviceDetailsForm> = {};
  if (!form.deviceName.trim()) errors.deviceName = 'Enter the name of your device.';
  else if (form.deviceName.trim().length > 100) errors.deviceName = 'Use at most 100 characters.';
  if (form.deviceType === '') errors.deviceType = 'Choose the device type.';
  const candidate = {
    deviceName: form.deviceName,
    deviceType: form.deviceType,
    deviceTypeOther: form.deviceType === 'other' ? form.deviceTypeOther : null,
  };
  const parsed = deviceInfoSchema.safeParse(candidate);
  if (parsed.success) {
    const problem = deviceInfoProblem(parsed.data);
    if (problem) errors.deviceTypeOther = problem;
  } else if (form.deviceType === 'other' && form.deviceTypeOther.trim().length > 100) {
    errors.deviceTypeOther = 'Use at most 100 characters.';
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, value: parsed.data };
}

export interface CompanyForm {
  companyName: string;
  country: string;
  state: string;
  streetAddress: string;
  city: string;
  zipCode: string;
}

const companyLimits: Record<Exclude<keyof CompanyForm, 'country' | 'state'>, { max: number; missing: string }> = {
  companyName: { max: 200, missing: 'Enter your company’s name.' },
  streetAddress: { max: 200, missing: 'Enter the street address.' },
  city: { max: 100, missing: 'Enter the city.' },
  zipCode: { max: 20, missing: 'Enter the zip code.' },
};

/** The company as the server wants it, or the message for each field that is not right. */
export function checkCompany(
  form: CompanyForm,
): { ok: true; value: Company } | { ok: false; errors: FieldErrors<keyof CompanyForm> } {
  const errors: FieldErrors<keyof CompanyForm> = {};
  for (const [field, limit] of Object.entries(companyLimits) as [
    keyof typeof companyLimits,
    { max: number; missing: string },
  ][]) {
    const value = form[field].trim();
    if (!value) errors[field] = limit.missing;
    else if (value.length > limit.max) errors[field] = `Use at most ${limit.max} characters.`;
  }
  const candidate = {
    companyName: form.companyName,
    country: form.country,
    state: form.country === unitedStatesCode ? form.state || null : null,
    streetAddress: form.streetAddress,
    city: form.city,
    zipCode: form.zipCode,
  };
  const problem = companyProblem({ ...candidate, country: candidate.country.toUpperCase() });
  if (problem) {
    if (!form.country || problem.startsWith('Choose the country')) errors.country = problem;
    else errors.state = problem;
  }
  const parsed = companySchema.safeParse(candidate);
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, value: parsed.data };
}

export interface Invitee {
  email: string;
  role: MemberRole;
}

/** The message for an e-mail that cannot be invited, or null. */
export function inviteeError(email: string, list: readonly Invitee[], ownEmail: string): string | null {
  const trimmed = email.trim().toLowerCase();
  if (!trimmed) return 'Enter your colleague’s e-mail address.';
  if (!teamInviteeSchema.safeParse({ email: trimmed }).success) return 'Enter a valid e-mail address.';
  if (trimmed === ownEmail.trim().toLowerCase()) return 'You are in the team already; invite your colleagues.';
  if (list.some((invitee) => invitee.email.toLowerCase() === trimmed)) return `${trimmed} is in the list already.`;
  return null;
}
