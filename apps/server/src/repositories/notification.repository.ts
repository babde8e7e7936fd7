import { and, desc, eq, getTableColumns, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notifications } from '../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NewNotification {
  userId: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  dedupeKey: string | null;
}

/** The channel on which a posted notification is announced to every server process. */
export const notificationChannel = 'notifications';

export class NotificationRepository {
  // The bell's page is read on every page load: its two statements (first page, a later one) are prepared once.
  private firstPageQuery?: ReturnType<NotificationRepository['preparePage']>;
  private laterPageQuery?: ReturnType<NotificationRepository['preparePage']>;

  constructor(private readonly db: Database) {}

  /** Inserts unless the same (user, dedupeKey) exists; answers the new row or null. Announces it. */
  async insert(notification: NewNotification): Promise<NotificationRow | null> {
    const rows = await this.db.orm.insert(notifications).values(notification).onConflictDoNothing().returning();
    const row = rows[0] ?? null;
    if (row)
      await this.db.executeSql('select pg_notify($1, $2)', [
        notificationChannel,
        JSON.stringify({ userId: row.userId, id: row.id }),
      ]);
    return row;
  }

  async findById(id: string): Promise<NotificationRow | null> {
    const rows = await this.db.orm.select().from(notifications).where(eq(notifications.id, id));
    return rows[0] ?? null;
  }

  /**
   * A page of the user's notifications, newest first, each row with whether any of the user's notifications is
   * unseen (one statement: the bell reads both on every page load; the subquery runs once per statement).
   */
  async list(
    userId: string,
    limit: number,
    before: Date | null,
  ): Promise<(NotificationRow & { userHasUnseen: boolean })[]> {
    if (before === null) {
      this.firstPageQuery ??= this.preparePage(false);
      return this.firstPageQuery.execute({ userId, limit });
    }
    this.laterPageQuery ??= this.preparePage(true);
    // As drizzle writes a timestamp parameter (its ISO text).
    return this.laterPageQuery.execute({ userId, limit, before: before.toISOString() });
  }

  private preparePage(later: boolean) {
    const userId = sql.placeholder('userId');
    const unseen = this.db.orm
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.seenAt)))
      .limit(1);
    return this.db.orm
      .select({ ...getTableColumns(notifications), userHasUnseen: sql<boolean>`exists(${unseen})` })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, userId),
          later ? lt(notifications.createdAt, sql.placeholder('before')) : undefined,
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(sql.placeholder('limit'))
      .prepare(later ? 'notification_page_later' : 'notification_page_first');
  }

  async hasUnseen(userId: string): Promise<boolean> {
    const rows = await this.db.orm
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.seenAt)))
      .limit(1);
    return rows.length > 0;
  }

  async markSeen(userId: string, ids: string[] | 'all', at: Date): Promise<number> {
    const rows = await this.db.orm
      .update(notifications)
      .set({ seenAt: at })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.seenAt),
          ids === 'all' ? undefined : inArray(notifications.id, ids),
        ),
      )
      .returning({ id: notifications.id });
    return rows.length;
  }

  /** Calls back with (userId, notificationId) for notifications posted by any process. */
  async subscribe(onPosted: (userId: string, id: string) => void): Promise<() => Promise<void>> {
    return this.db.listen(notificationChannel, (payload) => {
      try {
        const parsed = JSON.parse(payload) as { userId?: unknown; id?: unknown };
        if (typeof parsed.userId === 'string' && typeof parsed.id === 'string') onPosted(parsed.userId, parsed.id);
      } catch {
        // Not ours: ignore.
      }
    });
  }
}
