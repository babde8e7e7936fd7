import { and, asc, count, countDistinct, desc, eq, gte, inArray, lt, min, ne, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { analyticsEvents, analyticsUploadWindows, simulations, users } from '../db/schema';

export interface AnalyticsEventRow {
  insertId: string;
  userId: string;
  deviceId: string;
  sessionId: number;
  eventType: string;
  properties: Record<string, unknown>;
  occurredAt: Date;
}

export interface DailyTypeCount {
  day: string;
  eventType: string;
  events: number;
}

export interface DailyActiveUsers {
  day: string;
  users: number;
}

export interface FirstOccurrence {
  userId: string;
  eventType: string;
  first: Date;
}

export interface TypeCount {
  eventType: string;
  events: number;
  users: number;
}

/** One received event as the operator page lists it (the user by e-mail, as the wire names them). */
export interface ListedAnalyticsEvent {
  id: string;
  eventType: string;
  userEmail: string;
  deviceId: string;
  sessionId: number;
  properties: Record<string, unknown>;
  occurredAt: Date;
  receivedAt: Date;
}

/** Somebody who may read the analytics in the browser (`users.is_operator`). */
export interface AnalyticsOperator {
  id: string;
  email: string;
  fullName: string;
  isOperator: boolean;
}

/** The analytics_events table (issue 21), the upload windows of the rate limit and the operator flag. Days are UTC. */
export class AnalyticsRepository {
  constructor(private readonly orm: Orm) {}

  /** Stores the events; one already stored (same insert id) is skipped. Answers how many were new. */
  async insert(rows: AnalyticsEventRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const inserted = await this.orm
      .insert(analyticsEvents)
      .values(rows)
      .onConflictDoNothing({ target: analyticsEvents.insertId })
      .returning({ id: analyticsEvents.id });
    return inserted.length;
  }

  /** Retention: removes the events received before `before`; answers how many. */
  async deleteReceivedBefore(before: Date): Promise<number> {
    const deleted = await this.orm
      .delete(analyticsEvents)
      .where(lt(analyticsEvents.receivedAt, before))
      .returning({ id: analyticsEvents.id });
    return deleted.length;
  }

  async countsByDayAndType(from: Date, to: Date): Promise<DailyTypeCount[]> {
    const day = this.day();
    const rows = await this.orm
      .select({ day, eventType: analyticsEvents.eventType, events: count() })
      .from(analyticsEvents)
      .where(this.within(from, to))
      .groupBy(day, analyticsEvents.eventType)
      .orderBy(day, analyticsEvents.eventType);
    return rows.map((row) => ({ ...row, events: Number(row.events) }));
  }

  /** Distinct users per day; the server's own events (`serverDeviceId`) make nobody active. */
  async activeUsersByDay(from: Date, to: Date, serverDeviceId: string): Promise<DailyActiveUsers[]> {
    const day = this.day();
    const rows = await this.orm
      .select({ day, users: countDistinct(analyticsEvents.userId) })
      .from(analyticsEvents)
      .where(and(this.within(from, to), ne(analyticsEvents.deviceId, serverDeviceId)))
      .groupBy(day)
      .orderBy(day);
    return rows.map((row) => ({ ...row, users: Number(row.users) }));
  }

  /** Each user's first event of each of these types in the period (the funnel is ordered from these). */
  async firstOccurrences(from: Date, to: Date, eventTypes: string[]): Promise<FirstOccurrence[]> {
    const rows = await this.orm
      .select({
        userId: analyticsEvents.userId,
        eventType: analyticsEvents.eventType,
        first: min(analyticsEvents.occurredAt),
      })
      .from(analyticsEvents)
      .where(and(this.within(from, to), inArray(analyticsEvents.eventType, eventTypes)))
      .groupBy(analyticsEvents.userId, analyticsEvents.eventType);
    return rows.flatMap((row) => (row.first ? [{ ...row, first: new Date(row.first) }] : []));
  }

  /** Events and distinct users per type over the period, most events first. */
  async countsByType(from: Date, to: Date): Promise<TypeCount[]> {
    const events = count();
    const rows = await this.orm
      .select({ eventType: analyticsEvents.eventType, events, users: countDistinct(analyticsEvents.userId) })
      .from(analyticsEvents)
      .where(this.within(from, to))
      .groupBy(analyticsEvents.eventType)
      .orderBy(desc(events), asc(analyticsEvents.eventType));
    return rows.map((row) => ({ ...row, events: Number(row.events), users: Number(row.users) }));
  }

  /** Newest first (time, then id), before a cursor; optionally one type. */
  async list(query: {
    limit: number;
    before: { occurredAt: Date; id: string } | null;
    eventType: string | null;
  }): Promise<ListedAnalyticsEvent[]> {
    const before = query.before
      ? sql`(${analyticsEvents.occurredAt}, ${analyticsEvents.id}) < (${query.before.occurredAt.toISOString()}::timestamptz, ${query.before.id}::uuid)`
      : undefined;
    const rows = await this.orm
      .select({
        id: analyticsEvents.id,
        eventType: analyticsEvents.eventType,
        userEmail: users.email,
        deviceId: analyticsEvents.deviceId,
        sessionId: analyticsEvents.sessionId,
        properties: analyticsEvents.properties,
        occurredAt: analyticsEvents.occurredAt,
        receivedAt: analyticsEvents.receivedAt,
      })
      .from(analyticsEvents)
      .innerJoin(users, eq(users.id, analyticsEvents.userId))
      .where(and(before, query.eventType ? eq(analyticsEvents.eventType, query.eventType) : undefined))
      .orderBy(desc(analyticsEvents.occurredAt), desc(analyticsEvents.id))
      .limit(query.limit);
    return rows;
  }

  /**
   * Counts one upload of the user in the window that began with their first upload (a new window once it has
   * passed): one atomic upsert, so servers on one database share the count. Answers the count with this one.
   */
  async countUpload(userId: string, now: Date, windowMs: number): Promise<number> {
    const passed = sql`${analyticsUploadWindows.windowStart} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
    const rows = await this.orm
      .insert(analyticsUploadWindows)
      .values({ userId, windowStart: now, uploads: 1 })
      .onConflictDoUpdate({
        target: analyticsUploadWindows.userId,
        set: {
          uploads: sql`case when ${passed} then 1 else ${analyticsUploadWindows.uploads} + 1 end`,
          windowStart: sql`case when ${passed} then ${now.toISOString()}::timestamptz else ${analyticsUploadWindows.windowStart} end`,
        },
      })
      .returning({ uploads: analyticsUploadWindows.uploads });
    return rows[0]!.uploads;
  }

  /** A completed simulation's place and end, if the user still exists (the server's event names both). */
  async completedSimulation(
    simulationId: string,
    userId: string,
  ): Promise<{ projectId: string; roomId: string; finishedAt: Date } | null> {
    const [row] = await this.orm
      .select({ projectId: simulations.projectId, roomId: simulations.roomId, finishedAt: simulations.finishedAt })
      .from(simulations)
      .innerJoin(users, eq(users.id, userId))
      .where(and(eq(simulations.id, simulationId), eq(simulations.status, 'completed')));
    return row?.finishedAt ? { projectId: row.projectId, roomId: row.roomId, finishedAt: row.finishedAt } : null;
  }

  async isOperator(userId: string): Promise<boolean> {
    const [row] = await this.orm.select({ isOperator: users.isOperator }).from(users).where(eq(users.id, userId));
    return row?.isOperator ?? false;
  }

  /** Sets the operator flag of every account with this e-mail; answers those changed. */
  async setOperator(email: string, isOperator: boolean): Promise<AnalyticsOperator[]> {
    return this.orm
      .update(users)
      .set({ isOperator, updatedAt: sql`now()` })
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .returning(this.operatorColumns());
  }

  async listOperators(): Promise<AnalyticsOperator[]> {
    return this.orm
      .select(this.operatorColumns())
      .from(users)
      .where(eq(users.isOperator, true))
      .orderBy(asc(users.email));
  }

  private operatorColumns() {
    return { id: users.id, email: users.email, fullName: users.fullName, isOperator: users.isOperator };
  }

  private day() {
    return sql<string>`to_char(${analyticsEvents.occurredAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  }

  private within(from: Date, to: Date) {
    return and(gte(analyticsEvents.occurredAt, from), lt(analyticsEvents.occurredAt, to));
  }
}
