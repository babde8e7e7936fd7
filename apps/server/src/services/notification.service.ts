import type { Notification, NotificationList } from '@insilico/contracts';
import type { NotificationRepository, NotificationRow } from '../repositories/notification.repository';
import { ServiceError } from './errors';

export interface PostNotification {
  userId: string;
  kind: string;
  title: string;
  body?: string;
  /** A same-origin path, e.g. `/projects/view/stats?id=…`. */
  link?: string | null;
  /** Posting twice with the same key posts once (retried jobs rely on it). */
  dedupeKey?: string | null;
}

/** What a live stream receives: a new notification, or only a change of the unseen flag. */
export type NotificationEvent =
  { type: 'notification'; notification: Notification; hasUnseen: true } | { type: 'unseen'; hasUnseen: boolean };

type Listener = (event: NotificationEvent) => void;

/** Where the relay reports what it could not deliver (a pino logger in the app). */
export interface NotificationLog {
  error(details: object, message: string): void;
}

/** Notifications of a user: posting, listing, marking seen, and live delivery to open streams. */
export class NotificationService {
  private readonly listeners = new Map<string, Set<Listener>>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly repository: NotificationRepository,
    private readonly log: NotificationLog,
  ) {}

  async post(input: PostNotification): Promise<Notification | null> {
    if (input.link && !input.link.startsWith('/'))
      throw new ServiceError(400, 'bad_request', 'A notification link must be a path of this site.');
    const row = await this.repository.insert({
      userId: input.userId,
      kind: input.kind,
      title: input.title,
      body: input.body ?? '',
      link: input.link ?? null,
      dedupeKey: input.dedupeKey ?? null,
    });
    return row ? toNotification(row) : null;
  }

  async list(userId: string, limit: number, before: string | null): Promise<NotificationList> {
    const rows = await this.repository.list(userId, limit + 1, before ? new Date(before) : null);
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return {
      items: page.map(toNotification),
      // The page's rows carry the flag (the bell's list is read often: one statement). No row: without `before`
      // the user has no notification at all; an empty later page asks.
      hasUnseen: rows[0]?.userHasUnseen ?? (before !== null && (await this.repository.hasUnseen(userId))),
      nextBefore: hasMore ? page[page.length - 1]!.createdAt.toISOString() : null,
    };
  }

  async markSeen(userId: string, ids: string[] | 'all'): Promise<{ hasUnseen: boolean }> {
    await this.repository.markSeen(userId, ids, new Date());
    const hasUnseen = await this.repository.hasUnseen(userId);
    this.emit(userId, { type: 'unseen', hasUnseen });
    return { hasUnseen };
  }

  async hasUnseen(userId: string): Promise<boolean> {
    return this.repository.hasUnseen(userId);
  }

  /** Starts relaying notifications posted by any process (workers included) to this process's streams. */
  async startRelay(): Promise<void> {
    this.unsubscribe = await this.repository.subscribe((userId, id) => {
      if (!this.listeners.has(userId)) return;
      // Called from the database's notify callback: nothing up the stack awaits this, so a failed
      // read (or a listener that throws) is logged here rather than left to end the process.
      this.repository
        .findById(id)
        .then((row) => {
          if (row) this.emit(userId, { type: 'notification', notification: toNotification(row), hasUnseen: true });
        })
        .catch((error: unknown) =>
          this.log.error({ err: error, userId, notificationId: id }, 'notification relay failed'),
        );
    });
  }

  async stopRelay(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Registers a live stream of one user; answers the function that ends it. */
  subscribe(userId: string, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  private emit(userId: string, event: NotificationEvent): void {
    for (const listener of this.listeners.get(userId) ?? []) listener(event);
  }
}

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    seenAt: row.seenAt ? row.seenAt.toISOString() : null,
  };
}
