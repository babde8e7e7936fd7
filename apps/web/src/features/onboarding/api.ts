import useSWR from 'swr';
import {
  onboardingCompleteSchema,
  onboardingEndpoints as endpoints,
  onboardingSchema,
  onboardingStateSchema,
  pathOf,
  pictureEndpoints,
  pictureSchema,
  type Onboarding,
  type OnboardingComplete,
  type OnboardingState,
  type Picture,
  type SaveOnboarding,
} from '@insilico/contracts';
import { trackAfter } from '../../lib/analytics';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** SWR key (and URL) of the onboarding state. */
export const onboardingKey = pathOf(endpoints.get, {});

const fetchOnboarding = (url: string): Promise<Onboarding> => apiFetch(url, { schema: onboardingSchema });

/** `GET /api/onboarding`: the saved state, whether the user may create a workspace, how many they have. */
export function useOnboarding() {
  return useSWR<Onboarding, ApiError>(onboardingKey, fetchOnboarding);
}

/** `PUT /api/onboarding`: saves the whole state after a step. */
export function saveOnboarding(state: SaveOnboarding): Promise<OnboardingState> {
  return apiCall(endpoints.save, {}, { body: state, schema: onboardingStateSchema });
}

/** `POST /api/onboarding/complete`: creates the workspace (the user becomes its admin) and invites the team. */
export function completeOnboarding(): Promise<OnboardingComplete> {
  return apiCall(endpoints.complete, {}, { body: {}, schema: onboardingCompleteSchema }).then(
    trackAfter('workspace created', (done) => ({ deviceId: done.device.deviceId })),
  );
}

/** `PUT /api/onboarding/picture`: the device picture, kept until the workspace is created (then its picture). */
export function uploadOnboardingPicture(file: File): Promise<Picture> {
  return apiCall(pictureEndpoints.uploadNewDevice, {}, { file, schema: pictureSchema });
}

export function removeOnboardingPicture(): Promise<Picture> {
  return apiCall(pictureEndpoints.removeNewDevice, {}, { schema: pictureSchema });
}
