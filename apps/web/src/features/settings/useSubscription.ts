import useSWR from 'swr';
import { subscriptionSchema, type Subscription } from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';
import { subscriptionKey } from '../../lib/workspaceKeys';

const fetchSubscription = (url: string): Promise<Subscription> => apiFetch(url, { schema: subscriptionSchema });

/** `GET /api/devices/:id/subscription`: plan, seats and what occupies them; `null` id waits. */
export function useSubscription(deviceId: string | null) {
  return useSWR<Subscription, ApiError>(deviceId ? subscriptionKey(deviceId) : null, fetchSubscription);
}
