import { useCallback, useEffect, useEffectEvent, useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';
import {
  activityItemSchema,
  activityListSchema,
  activityStreamEvent,
  auditEndpoints,
  notificationEndpoints,
  pathOf,
  type ActivityItem,
  type ActivityList,
} from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** The feed's filters as the page keeps them in its address (all optional). */
export interface ActivityFilters {
  projectId: string;
  actorId: string;
  kind: string;
  /** `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
}

export const pageSize = 25;

/** The inspector's bundle of the workspace's audit trail (admins): CSV and JSON with a manifest of SHA-256 hashes. */
export const auditExportUrl = (deviceId: string) => pathOf(auditEndpoints.export, { deviceId }, { format: 'zip' });

/** A page of the feed under the filters (an empty filter is left out of the query). */
export function activityUrl(deviceId: string, filters: ActivityFilters, before: number | null): string {
  return pathOf(
    auditEndpoints.activity,
    { deviceId },
    {
      limit: pageSize,
      projectId: filters.projectId || undefined,
      actorId: filters.actorId || undefined,
      kind: filters.kind || undefined,
      from: filters.from || undefined,
      to: filters.to || undefined,
      before,
    },
  );
}

/** Whether a live event belongs on the page under its filters. */
export function matches(item: ActivityItem, filters: ActivityFilters): boolean {
  const day = item.occurredAt.slice(0, 10);
  return (
    (!filters.projectId || item.project?.id === filters.projectId) &&
    (!filters.actorId || item.actor?.id === filters.actorId) &&
    (!filters.kind || item.kind === filters.kind) &&
    (!filters.from || day >= filters.from) &&
    (!filters.to || day <= filters.to)
  );
}

const fetchPage = (url: string) => apiFetch(url, { schema: activityListSchema });

function parseData(event: MessageEvent<unknown>): unknown {
  if (typeof event.data !== 'string') return undefined;
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The workspace's activity feed, newest first, paged ("Show older"), with new events pushed live over the
 * notification stream (`?device=`): each one that matches the filters is put on top.
 */
export function useActivityFeed(deviceId: string | null, filters: ActivityFilters) {
  const getKey = useCallback(
    (index: number, previous: ActivityList | null) => {
      if (!deviceId) return null;
      if (index === 0) return activityUrl(deviceId, filters, null);
      return previous?.nextBefore ? activityUrl(deviceId, filters, previous.nextBefore) : null;
    },
    [deviceId, filters],
  );
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<ActivityList, ApiError>(
    getKey,
    fetchPage,
    { revalidateFirstPage: false },
  );
  const items = useMemo(() => data?.flatMap((page) => page.items) ?? [], [data]);

  const receive = useEffectEvent((event: MessageEvent<unknown>) => {
    const parsed = activityItemSchema.safeParse(parseData(event));
    if (!parsed.success || !matches(parsed.data, filters)) return;
    const item = parsed.data;
    void mutate(
      (pages) => {
        if (!pages?.[0]) return pages;
        const [first, ...rest] = pages;
        if (pages.some((page) => page.items.some((known) => known.id === item.id))) return pages;
        return [{ ...first, items: [item, ...first.items] }, ...rest];
      },
      { revalidate: false },
    );
  });

  useEffect(() => {
    if (!deviceId || typeof EventSource === 'undefined') return;
    const source = new EventSource(pathOf(notificationEndpoints.stream, {}, { device: deviceId }));
    const listener = (event: MessageEvent<unknown>) => receive(event);
    source.addEventListener(activityStreamEvent, listener);
    return () => {
      source.removeEventListener(activityStreamEvent, listener);
      source.close();
    };
  }, [deviceId]);

  return {
    items,
    facets: data?.[0] ?? null,
    error,
    isLoading,
    isLoadingMore: isValidating && data !== undefined && size > data.length,
    hasMore: Boolean(data?.[data.length - 1]?.nextBefore),
    loadMore: () => void setSize((current) => current + 1),
    retry: () => void mutate(),
  };
}
