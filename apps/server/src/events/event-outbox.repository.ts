import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { domainEvents, eventOutbox } from '../db/schema';
import type { CommittedEvent } from './domain-event';

/** What a relay takes: these events (just committed by its own process), or those another writer left behind. */
export type OutboxClaim = { ids: readonly number[] } | { leftForMs: number };

/**
 * The domain events' outbox (migration 0027): a trigger writes a row per event in the event's transaction; a relay
 * leases rows, delivers their events and removes them. Leases are taken with `FOR UPDATE SKIP LOCKED`, so relays of
 * several processes never take one row at once; a lease that runs out (its relay died) frees the row again.
 */
export class EventOutboxRepository {
  constructor(private readonly orm: Orm) {}

  /** Leases up to `limit` deliverable rows for `leaseMs` and answers their events, oldest first. */
  async claim(which: OutboxClaim, leaseMs: number, maxAttempts: number, limit: number): Promise<CommittedEvent[]> {
    const free = or(isNull(eventOutbox.leasedUntil), lt(eventOutbox.leasedUntil, sql`clock_timestamp()`));
    const chosen =
      'ids' in which
        ? inArray(eventOutbox.eventId, [...which.ids])
        : lt(eventOutbox.enqueuedAt, sql`clock_timestamp() - ${which.leftForMs} * interval '1 millisecond'`);
    if ('ids' in which && which.ids.length === 0) return [];
    const deliverable = this.orm
      .select({ eventId: eventOutbox.eventId })
      .from(eventOutbox)
      .where(and(free, chosen, lt(eventOutbox.attempts, maxAttempts)))
      .orderBy(asc(eventOutbox.eventId))
      .limit(limit)
      .for('update', { skipLocked: true });
    const leased = await this.orm
      .update(eventOutbox)
      .set({
        leasedUntil: sql`clock_timestamp() + ${leaseMs} * interval '1 millisecond'`,
        attempts: sql`${eventOutbox.attempts} + 1`,
      })
      .where(inArray(eventOutbox.eventId, deliverable))
      .returning({ eventId: eventOutbox.eventId });
    if (leased.length === 0) return [];
    const rows = await this.orm
      .select()
      .from(domainEvents)
      .where(
        inArray(
          domainEvents.id,
          leased.map((row) => row.eventId),
        ),
      )
      .orderBy(asc(domainEvents.id));
    return rows.map((row) => ({
      id: row.id,
      actorId: row.actorId,
      action: row.action,
      objectType: row.objectType,
      objectId: row.objectId,
      deviceId: row.deviceId,
      projectId: row.projectId,
      before: row.before,
      after: row.after,
      reason: row.reason,
    }));
  }

  /** Removes delivered rows. */
  async delivered(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.orm.delete(eventOutbox).where(inArray(eventOutbox.eventId, [...ids]));
  }

  /** Notes why a delivery failed; the row is taken again once its lease runs out. */
  async failed(id: number, error: string): Promise<void> {
    await this.orm.update(eventOutbox).set({ lastError: error }).where(eq(eventOutbox.eventId, id));
  }
}
