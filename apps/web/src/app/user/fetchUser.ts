import { authEndpoints, pathOf, userProfileSchema, type UserProfile } from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import { ApiError } from '../../lib/apiError';
import { rememberSignedIn } from '../../lib/earlyRequests';

export const userProfileKey = pathOf(authEndpoints.me, {});

/**
 * The signed-in user (spec §7): 200 → the profile, 401 → `null` ("no user"). Every other failure
 * rejects with an `ApiError` carrying the status, 0 for a network failure.
 */
export async function fetchUser(): Promise<UserProfile | null> {
  try {
    const user = await apiFetch(userProfileKey, { schema: userProfileSchema });
    rememberSignedIn(true);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      rememberSignedIn(false);
      return null;
    }
    throw error;
  }
}
