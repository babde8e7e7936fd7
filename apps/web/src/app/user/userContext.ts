import { createContext, useContext } from 'react';
import type { UserProfile } from '@insilico/contracts';
import type { ApiError } from '../../lib/apiError';

/**
 * The session of spec §4: loading (`isLoading`), a user, no user (`user === null`), or an error.
 * `user` stays `undefined` until the profile call has answered.
 */
export interface UserContextValue {
  user: UserProfile | null | undefined;
  error: ApiError | undefined;
  isLoading: boolean;
  /** True while the profile is being fetched again (e.g. after Retry). */
  isValidating: boolean;
  retry: () => void;
}

export const UserContext = createContext<UserContextValue | null>(null);

export const missingProviderMessage = 'You forgot to wrap your app in <UserProvider>';

/** The current session; throws when used outside `<UserProvider>` (spec §8). */
export function useUser(): UserContextValue {
  const value = useContext(UserContext);
  if (value === null) throw new Error(missingProviderMessage);
  return value;
}

/** The signed-in user, for components rendered only behind `<RequireUser>`. */
export function useSignedInUser(): UserProfile {
  const { user } = useUser();
  if (!user) throw new Error('useSignedInUser is used outside <RequireUser>');
  return user;
}
