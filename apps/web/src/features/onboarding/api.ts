import useSWR from 'swr';
import {
  onboardingCompleteSchema,
  onboardingSchema,
  onboardingStateSchema,
  pictureSchema,
  type Onboarding,
  type OnboardingComplete,
  type OnboardingState,
  type Picture,
  type SaveOnboarding,
} from '@insilico/contracts';
import { trackAfter } from '../../lib/analytics';
import { apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** SWR key (and URL) of the onboarding state. */
export const onboardingKey = '/api/onboarding';

const fetchOnboarding = (url: string): Promise<Onboarding> => apiFetch(url, { schema: onboardingSchema });

/** `GET /api/onboarding`: the saved state, whether the user may create a workspace, how many they have. */
export function useOnboarding() {
  return useSWR<Onboarding, ApiError>(onboardingKey, fetchOnboarding);
}

/** `PUT /api/onboarding`: saves the whole state after a step. */
export function saveOnboarding(state: SaveOnboarding): Promise<OnboardingState> {
  return apiFetch(onboardingKey, { method: 'PUT', body: state, schema: onboardingStateSchema });
}

/** `POST /api/onboarding/complete`: creates the workspace (the user becomes its admin) and invites the team. */
export function completeOnboarding(): Promise<OnboardingComplete> {
  return apiFetch('/api/onboarding/complete', { method: 'POST', body: {}, schema: onboardingCompleteSchema }).then(
    trackAfter('workspace created', (done) => ({ deviceId: done.device.deviceId })),
  );
}

/** `PUT /api/onboarding/picture`: the device picture, kept until the workspace is created (then its picture). */
export function uploadOnboardingPicture(file: File): Promise<Picture> {
  return apiFetch('/api/onboarding/picture', { method: 'PUT', file, schema: pictureSchema });
}

export function removeOnboardingPicture(): Promise<Picture> {
  return apiFetch('/api/onboarding/picture', { method: 'DELETE', schema: pictureSchema });
}
