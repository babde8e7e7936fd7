import { and, asc, desc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Database, Orm } from '../db/client';
import { domainEvents, projectMembers, projects, users } from '../db/schema';
import { asStoredJson, genesisHash, hashOf, type StoredRow } from './chain';
import type { DomainEvent } from './domain-event';
import { currentRequestId } from './request-context';

/** Announced (on commit) with the new rows' numbers, for the live activity feed. */
export const domainEventChannel = 'domain_events';

/** The chain's transaction-scoped advisory lock: one appender at a time, from the head read to the commit. */
const chainLockKey = 7_140_271_020;

const utcMicros = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

export type DomainEventRow = typeof domainEvents.$inferSelect;

/** What the activity feed asks for; `onTeamOf`: only projects this user is on (a guest). */
export interface FeedFilter {
  deviceId: string;
  onTeamOf: string | null;
  projectId?: string;
  actorId?: string;
  kind?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  before?: number;
  seqs?: number[];
}

export interface FeedFacets {
  kinds: string[];
  projects: { id: string; name: string }[];
  people: { id: string; name: string }[];
}

export interface FeedRow {
  event: DomainEventRow;
  projectName: string | null;
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  // Both drivers answer { rows } (PGlite and node-postgres); the union of their drizzle types does not say so.
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** The audit trail's table: appends on a transaction's connection, reads in sequence order. */
export class DomainEventRepository {
  /** `db`: only to listen for the events of other processes (the activity relay). */
  constructor(
    private readonly orm: Orm,
    private readonly db: Pick<Database, 'listen'> | null = null,
  ) {}

  /**
   * Appends events at the head of the chain. Call it on a transaction's connection, last before the commit: the
   * advisory lock it takes is held until then, so the chain has one writer at a time and numbers follow time.
   */
  async append(events: readonly DomainEvent[]): Promise<number[]> {
    if (events.length === 0) return [];
    await this.orm.execute(sql`select pg_advisory_xact_lock(${chainLockKey})`);
    const [head] = rowsOf(
      await this.orm.execute(
        sql.raw(
          `select to_char(clock_timestamp() at time zone 'UTC', ${utcMicros}) as now,
             (select seq from domain_events order by seq desc limit 1) as seq,
             (select hash from domain_events order by seq desc limit 1) as hash`,
        ),
      ),
    );
    const actorIds = [...new Set(events.map((event) => event.actorId).filter((id): id is string => id !== null))];
    const names = new Map(
      actorIds.length === 0
        ? []
        : (
            await this.orm.select({ id: users.id, name: users.fullName }).from(users).where(inArray(users.id, actorIds))
          ).map((user) => [user.id, user.name]),
    );
    const occurredAt = String(head?.now);
    const requestId = currentRequestId();
    let seq = head?.seq === null || head?.seq === undefined ? 0 : Number(head.seq);
    let prevHash = typeof head?.hash === 'string' ? head.hash : genesisHash;
    const rows: (typeof domainEvents.$inferInsert)[] = [];
    for (const event of events) {
      seq += 1;
      const content = {
        seq,
        occurredAt,
        actorId: event.actorId,
        actorName: event.actorId ? (names.get(event.actorId) ?? null) : null,
        action: event.action,
        objectType: event.objectType,
        objectId: event.objectId,
        deviceId: event.deviceId,
        projectId: event.projectId,
        before: asStoredJson(event.before),
        after: asStoredJson(event.after),
        reason: event.reason ?? null,
        requestId,
        prevHash,
      };
      const hash = hashOf(content);
      rows.push({ ...content, occurredAt: new Date(0), hash });
      prevHash = hash;
    }
    // The time goes in as the text that was hashed (microseconds; a JS Date holds milliseconds only).
    await this.orm
      .insert(domainEvents)
      .values(rows.map((row) => ({ ...row, occurredAt: sql`${occurredAt}::timestamptz` })));
    const numbers = rows.map((row) => row.seq);
    await this.orm.execute(sql`select pg_notify(${domainEventChannel}, ${numbers.join(',')})`);
    return numbers;
  }

  /**
   * Rows after `afterSeq` in order, as the chain hashed them (the verifier's and the export's read); with a
   * workspace, only its rows.
   */
  async page(afterSeq: number, limit: number, deviceId: string | null = null): Promise<StoredRow[]> {
    const rows = await this.orm
      .select({
        seq: domainEvents.seq,
        occurredAt: sql<string>`to_char(${domainEvents.occurredAt} at time zone 'UTC', ${sql.raw(utcMicros)})`,
        actorId: domainEvents.actorId,
        actorName: domainEvents.actorName,
        action: domainEvents.action,
        objectType: domainEvents.objectType,
        objectId: domainEvents.objectId,
        deviceId: domainEvents.deviceId,
        projectId: domainEvents.projectId,
        before: domainEvents.before,
        after: domainEvents.after,
        reason: domainEvents.reason,
        requestId: domainEvents.requestId,
        prevHash: domainEvents.prevHash,
        hash: domainEvents.hash,
      })
      .from(domainEvents)
      .where(and(gt(domainEvents.seq, afterSeq), deviceId ? eq(domainEvents.deviceId, deviceId) : undefined))
      .orderBy(asc(domainEvents.seq))
      .limit(limit);
    return rows;
  }

  /** The activity feed's read: a workspace's events, newest first, with the project's current name. */
  async feed(filter: FeedFilter, limit: number): Promise<FeedRow[]> {
    const conditions: (SQL | undefined)[] = [
      ...this.scopeOf(filter),
      filter.projectId ? eq(domainEvents.projectId, filter.projectId) : undefined,
      filter.actorId ? eq(domainEvents.actorId, filter.actorId) : undefined,
      filter.kind ? eq(domainEvents.objectType, filter.kind) : undefined,
      filter.from ? gte(domainEvents.occurredAt, filter.from) : undefined,
      filter.to ? lt(domainEvents.occurredAt, filter.to) : undefined,
      filter.before ? lt(domainEvents.seq, filter.before) : undefined,
      filter.seqs ? inArray(domainEvents.seq, filter.seqs) : undefined,
    ];
    return this.orm
      .select({ event: domainEvents, projectName: projects.name })
      .from(domainEvents)
      .leftJoin(projects, eq(projects.id, domainEvents.projectId))
      .where(and(...conditions))
      .orderBy(desc(domainEvents.seq))
      .limit(limit);
  }

  /** The feed filters' choices within a scope: the kinds, projects and people its events name. */
  async facets(scope: Pick<FeedFilter, 'deviceId' | 'onTeamOf'>): Promise<FeedFacets> {
    const where = and(...this.scopeOf(scope));
    const [kinds, projectRows, people] = await Promise.all([
      this.orm
        .selectDistinct({ kind: domainEvents.objectType })
        .from(domainEvents)
        .where(where)
        .orderBy(asc(domainEvents.objectType)),
      this.orm
        .selectDistinct({ id: projects.id, name: projects.name })
        .from(domainEvents)
        .innerJoin(projects, eq(projects.id, domainEvents.projectId))
        .where(where)
        .orderBy(asc(projects.name)),
      this.orm
        .selectDistinct({ id: users.id, name: users.fullName })
        .from(domainEvents)
        .innerJoin(users, eq(users.id, domainEvents.actorId))
        .where(where)
        .orderBy(asc(users.fullName)),
    ]);
    return { kinds: kinds.map((row) => row.kind), projects: projectRows, people };
  }

  private scopeOf(scope: Pick<FeedFilter, 'deviceId' | 'onTeamOf'>): (SQL | undefined)[] {
    return [
      eq(domainEvents.deviceId, scope.deviceId),
      scope.onTeamOf
        ? inArray(
            domainEvents.projectId,
            this.orm
              .select({ id: projectMembers.projectId })
              .from(projectMembers)
              .where(eq(projectMembers.userId, scope.onTeamOf)),
          )
        : undefined,
    ];
  }

  /** Calls back with the numbers of events committed by any process. */
  async subscribe(onCommitted: (seqs: number[]) => void): Promise<() => Promise<void>> {
    if (!this.db) throw new Error('Listening needs the database, not a transaction.');
    return this.db.listen(domainEventChannel, (payload) => {
      const seqs = payload.split(',').map(Number).filter(Number.isSafeInteger);
      if (seqs.length > 0) onCommitted(seqs);
    });
  }
}
