import { and, count, countDistinct, gte, inArray, lt, min, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { analyticsEvents } from '../db/schema';

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

/** The analytics_events table (issue 21). Days are UTC calendar days. */
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

  async activeUsersByDay(from: Date, to: Date): Promise<DailyActiveUsers[]> {
    const day = this.day();
    const rows = await this.orm
      .select({ day, users: countDistinct(analyticsEvents.userId) })
      .from(analyticsEvents)
      .where(this.within(from, to))
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

  private day() {
    return sql<string>`to_char(${analyticsEvents.occurredAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  }

  private within(from: Date, to: Date) {
    return and(gte(analyticsEvents.occurredAt, from), lt(analyticsEvents.occurredAt, to));
  }
}
