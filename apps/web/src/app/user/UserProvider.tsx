import { useCallback, useMemo, type ReactNode } from 'react';
import useSWR from 'swr';
import type { UserProfile } from '@insilico/contracts';
import { ApiError, clientErrorCodes } from '../../lib/apiError';
import { fetchUser, userProfileKey } from './fetchUser';
import { UserContext, type UserContextValue } from './userContext';

function asApiError(error: unknown): ApiError | undefined {
  if (error === undefined || error === null) return undefined;
  if (error instanceof ApiError) return error;
  return new ApiError(0, clientErrorCodes.network, error instanceof Error ? error.message : 'Request failed');
}

/** Fetches the profile once (SWR, deduped) and shares the session with the whole app. */
export function UserProvider({ children }: { children: ReactNode }) {
  const { data, error, isLoading, isValidating, mutate } = useSWR<UserProfile | null, unknown>(
    userProfileKey,
    fetchUser,
  );

  const retry = useCallback(() => {
    void mutate();
  }, [mutate]);

  const value = useMemo<UserContextValue>(
    () => ({ user: data, error: asApiError(error), isLoading, isValidating, retry }),
    [data, error, isLoading, isValidating, retry],
  );

  return <UserContext value={value}>{children}</UserContext>;
}
