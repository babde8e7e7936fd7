import { useCallback, useMemo } from 'react';
import { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { MarkSeen, Notification, NotificationList } from '@insilico/contracts';
import type { ApiError } from '../../../lib/apiError';
import { isMembershipKey } from '../../../lib/workspaceKeys';
import { fetchNotificationPage, markNotificationsSeen, notificationPageUrl } from '../api';

export interface NotificationsState {
  items: Notification[];
  hasUnseen: boolean;
  isLoading: boolean;
  isLoadingMore: boolean;
  hasMore: boolean;
  error: ApiError | undefined;
  loadMore: () => void;
  retry: () => void;
  /** A notification pushed by the stream: shown first, and the unseen dot set when it is unseen. */
  receive: (notification: Notification) => void;
  /** The stream's word on whether anything is unseen. */
  setHasUnseen: (hasUnseen: boolean) => void;
  /** Marks notifications seen on the server, then locally. */
  markSeen: (body: MarkSeen) => Promise<void>;
}

function getKey(pageIndex: number, previous: NotificationList | null): string | null {
  if (pageIndex === 0) return notificationPageUrl(null);
  if (!previous?.nextBefore) return null;
  return notificationPageUrl(previous.nextBefore);
}

function withFirstPage(pages: NotificationList[] | undefined, change: (first: NotificationList) => NotificationList) {
  if (!pages || pages.length === 0) return pages;
  const [first, ...rest] = pages;
  return first ? [change(first), ...rest] : pages;
}

/** The signed-in user's notifications, newest first, paged by cursor ("Load more"). */
export function useNotifications(): NotificationsState {
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<NotificationList, ApiError>(
    getKey,
    fetchNotificationPage,
    // Later pages do not change when new notifications arrive at the top; the stream updates page 1.
    { revalidateFirstPage: false },
  );

  const items = useMemo(() => data?.flatMap((page) => page.items) ?? [], [data]);
  const hasUnseen = data?.[0]?.hasUnseen ?? false;
  const lastPage = data?.[data.length - 1];
  const hasMore = Boolean(lastPage?.nextBefore);
  const isLoadingMore = isValidating && data !== undefined && size > data.length;

  const loadMore = useCallback(() => {
    void setSize((current) => current + 1);
  }, [setSize]);

  const retry = useCallback(() => {
    void mutate();
  }, [mutate]);

  // A stream event that arrives before the first page has loaded cannot be merged into it, and
  // the request still in flight may predate the event: fetch again (SWR drops the older answer).
  // Only fetch: an update of the still-empty cache would count as a mutation newer than that fetch,
  // and SWR would drop the fetch's answer too, leaving the bell without data until a reload.
  const loaded = data !== undefined;

  const { mutate: mutateAny } = useSWRConfig();
  const receive = useCallback(
    (notification: Notification) => {
      // A notification tells of a change on the server: the data it is about is asked for again.
      if (notification.kind.startsWith('team.')) void mutateAny(isMembershipKey);
      if (!loaded) {
        void mutate();
        return;
      }
      void mutate(
        (pages) =>
          withFirstPage(pages, (first) => ({
            ...first,
            items: [notification, ...first.items.filter((item) => item.id !== notification.id)],
            hasUnseen: first.hasUnseen || notification.seenAt === null,
          })),
        { revalidate: false },
      );
    },
    [loaded, mutate, mutateAny],
  );

  const setHasUnseen = useCallback(
    (value: boolean) => {
      if (!loaded) {
        void mutate();
        return;
      }
      void mutate((pages) => withFirstPage(pages, (first) => ({ ...first, hasUnseen: value })), { revalidate: false });
    },
    [loaded, mutate],
  );

  const markSeen = useCallback(
    async (body: MarkSeen) => {
      const serverHasUnseen = await markNotificationsSeen(body);
      const seenAt = new Date().toISOString();
      const marked = 'all' in body ? null : new Set(body.ids);
      const isMarked = (item: Notification) => item.seenAt === null && (marked === null || marked.has(item.id));
      await mutate(
        (pages) =>
          pages?.map((page, index) => ({
            ...page,
            items: page.items.map((item) => (isMarked(item) ? { ...item, seenAt } : item)),
            // Without an answer from the server, what the user has just opened counts as seen.
            hasUnseen: index === 0 ? (serverHasUnseen ?? false) : page.hasUnseen,
          })),
        { revalidate: false },
      );
    },
    [mutate],
  );

  return {
    items,
    hasUnseen,
    isLoading,
    isLoadingMore,
    hasMore,
    error,
    loadMore,
    retry,
    receive,
    setHasUnseen,
    markSeen,
  };
}
