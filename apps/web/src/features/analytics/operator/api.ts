import { useCallback, useMemo } from 'react';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import {
  analyticsAccessSchema,
  analyticsEndpoints as endpoints,
  analyticsEventListSchema,
  analyticsReportSchema,
  type AnalyticsAccess,
  type AnalyticsEventList,
  type AnalyticsReport,
} from '@insilico/contracts/analytics';
import { pathOf } from '@insilico/contracts';
import { apiFetch } from '../../../lib/api';
import type { ApiError } from '../../../lib/apiError';

/** The operator page's periods (days, today included). */
export const analyticsPeriods = [7, 30, 90] as const;
export const eventsPageSize = 25;

const accessKey = pathOf(endpoints.access, {});

/** Whether the signed-in user may read the analytics (the account menu's link and the page). */
export function useAnalyticsAccess() {
  return useSWR<AnalyticsAccess, ApiError>(accessKey, (url: string) =>
    apiFetch(url, { schema: analyticsAccessSchema }),
  );
}

export function useAnalyticsReport(days: number) {
  return useSWR<AnalyticsReport, ApiError>(pathOf(endpoints.report, {}, { days }), (url: string) =>
    apiFetch(url, { schema: analyticsReportSchema }),
  );
}

export function analyticsEventsUrl(eventType: string, before: string | null): string {
  return pathOf(
    endpoints.events,
    {},
    { limit: eventsPageSize, eventType: eventType || undefined, before: before || undefined },
  );
}

const fetchEvents = (url: string) => apiFetch(url, { schema: analyticsEventListSchema });

/** The received events, newest first, a page at a time ("Show older events"). */
export function useAnalyticsEvents(eventType: string) {
  const getKey = useCallback(
    (index: number, previous: AnalyticsEventList | null) => {
      if (index === 0) return analyticsEventsUrl(eventType, null);
      return previous?.next ? analyticsEventsUrl(eventType, previous.next) : null;
    },
    [eventType],
  );
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<AnalyticsEventList, ApiError>(
    getKey,
    fetchEvents,
    { revalidateFirstPage: false },
  );
  const items = useMemo(() => data?.flatMap((page) => page.items) ?? [], [data]);
  return {
    items,
    error,
    isLoading,
    isLoadingMore: isValidating && data !== undefined && size > data.length,
    hasMore: Boolean(data?.[data.length - 1]?.next),
    loadMore: () => void setSize((current) => current + 1),
    retry: () => void mutate(),
  };
}
