import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Database, Orm } from '../db/client';
import { domainEvents, projectMembers, projects, users } from '../db/schema';
import { asStoredJson, genesisHash, linkRows, type StoredRow } from './chain';
import type { DomainEvent } from './domain-event';
import { currentRequestId } from './request-context';

/** Announced by the chainer (on its commit) with the ids it linked, for the live activity feeds. */
export const domainEventChannel = 'domain_events';

/** The chainer's transaction-scoped advisory lock: one chainer at a time, from the head read to the commit. */
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
  ids?: number[];
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

/** The columns the chain hashes, times as the database formats them (microseconds). */
function chainedColumns() {
  return {
    seq: domainEvents.seq,
    id: domainEvents.id,
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
  };
}

/**
 * The actor's name as the trail keeps it, read by the INSERT itself (a scalar subquery: no round trip of its own in
 * the request's transaction); a job's event names whom it worked for: "System (for <their name>)".
 */
function actorNameOf(event: DomainEvent): SQL {
  const nameOf = (id: string) => sql`(select full_name from users where id = ${id}::uuid)`;
  if (event.actorId) return nameOf(event.actorId);
  if (!event.onBehalfOf) return sql`null`;
  return sql`'System (for ' || coalesce(${nameOf(event.onBehalfOf)}, 'a former user') || ')'`;
}

/** A before/after value as the `jsonb` column takes it (text cast by the INSERT), or null. */
function jsonText(value: unknown): string | null {
  const stored = asStoredJson(value);
  return stored === null ? null : JSON.stringify(stored);
}

/** The audit trail's table: appends on a transaction's connection, chains committed rows, reads in order. */
export class DomainEventRepository {
  /** `db`: only to listen for the events of other processes (the activity relay). */
  constructor(
    private readonly orm: Orm,
    private readonly db: Pick<Database, 'listen'> | null = null,
  ) {}

  /**
   * Writes events, unchained, on a transaction's connection (no lock: writers never wait for each other); answers
   * their ids. The database stamps the time; the chainer links them once committed.
   */
  async append(events: readonly DomainEvent[]): Promise<number[]> {
    if (events.length === 0) return [];
    const requestId = currentRequestId();
    // Plain SQL, one row per event: the query builder's per-call work (a fraction of a millisecond, much more under
    // load) ran on the event loop every writer shares; a simple VALUES list is also the cheapest for PostgreSQL to
    // plan (bench/audit.bench.ts, docs/benchmarks.md).
    const values = events.map(
      (event) => sql`(${event.actorId}::uuid, ${actorNameOf(event)}, ${event.action}, ${event.objectType},
        ${event.objectId}, ${event.deviceId}::uuid, ${event.projectId}::uuid, ${jsonText(event.before)}::jsonb,
        ${jsonText(event.after)}::jsonb, ${event.reason ?? null}, ${requestId})`,
    );
    const result: unknown = await this.orm.execute(sql`
      insert into domain_events
        (actor_id, actor_name, action, object_type, object_id, device_id, project_id, before, after, reason,
         request_id)
      values ${sql.join(values, sql`, `)}
      returning id`);
    // Both drivers answer { rows } (PGlite and node-postgres); the union of their drizzle types does not say so.
    // Ids are drawn in the order of the VALUES list (the events' order).
    const { rows } = result as { rows: { id: number | string }[] };
    return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  }

  /**
   * Links up to `limit` committed, unchained rows to the head of the chain, in the order they were written: each
   * gets the next place and its hash (`linkRows`). Call it on a transaction of its own; answers how many rows it
   * linked.
   */
  async chainPending(limit: number): Promise<number> {
    await this.orm.execute(sql`select pg_advisory_xact_lock(${chainLockKey})`);
    const [head] = await this.orm
      .select({ seq: domainEvents.seq, hash: domainEvents.hash })
      .from(domainEvents)
      .where(isNotNull(domainEvents.seq))
      .orderBy(desc(domainEvents.seq))
      .limit(1);
    const pending = await this.orm
      .select(chainedColumns())
      .from(domainEvents)
      .where(isNull(domainEvents.seq))
      .orderBy(asc(domainEvents.id))
      .limit(limit);
    if (pending.length === 0) return 0;
    // The head was read under the lock: no other chainer links rows until this transaction ends.
    const links = linkRows(
      { seq: head?.seq ?? 0, hash: head?.hash ?? genesisHash },
      pending.map(({ seq: _seq, prevHash: _prevHash, hash: _hash, ...row }) => row),
    );
    await this.orm.execute(sql`
      update domain_events as d set seq = u.seq, prev_hash = u.prev_hash, hash = u.hash
      from unnest(
        ${`{${links.map((link) => link.id).join(',')}}`}::bigint[],
        ${`{${links.map((link) => link.seq).join(',')}}`}::bigint[],
        ${`{${links.map((link) => link.prevHash).join(',')}}`}::text[],
        ${`{${links.map((link) => link.hash).join(',')}}`}::text[]
      ) as u(id, seq, prev_hash, hash)
      where d.id = u.id`);
    // Delivered when the chainer's transaction commits: the activity feeds of every process hear of the events.
    await this.orm.execute(sql`select pg_notify(${domainEventChannel}, ${links.map((link) => link.id).join(',')})`);
    return links.length;
  }

  /** How many committed rows wait for the chainer. */
  async pendingCount(): Promise<number> {
    const [row] = await this.orm
      .select({ n: sql<number>`count(*)::int` })
      .from(domainEvents)
      .where(isNull(domainEvents.seq));
    return Number(row?.n ?? 0);
  }

  /**
   * Chained rows after place `afterSeq` in chain order, as the chain hashed them (the verifier's and the export's
   * read); with a workspace, only its rows.
   */
  async page(afterSeq: number, limit: number, deviceId: string | null = null): Promise<StoredRow[]> {
    const rows = await this.orm
      .select(chainedColumns())
      .from(domainEvents)
      .where(and(gt(domainEvents.seq, afterSeq), deviceId ? eq(domainEvents.deviceId, deviceId) : undefined))
      .orderBy(asc(domainEvents.seq))
      .limit(limit);
    return rows.map((row) => ({ ...row, seq: row.seq!, prevHash: row.prevHash!, hash: row.hash! }));
  }

  /** These chained rows of a workspace, in chain order, as the chain hashed them (an excerpt of the trail). */
  async chained(deviceId: string, ids: readonly number[]): Promise<StoredRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.orm
      .select(chainedColumns())
      .from(domainEvents)
      .where(and(eq(domainEvents.deviceId, deviceId), inArray(domainEvents.id, [...ids]), isNotNull(domainEvents.seq)))
      .orderBy(asc(domainEvents.seq));
    return rows.map((row) => ({ ...row, seq: row.seq!, prevHash: row.prevHash!, hash: row.hash! }));
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
      filter.before ? lt(domainEvents.id, filter.before) : undefined,
      filter.ids ? inArray(domainEvents.id, filter.ids) : undefined,
    ];
    return this.orm
      .select({ event: domainEvents, projectName: projects.name })
      .from(domainEvents)
      .leftJoin(projects, eq(projects.id, domainEvents.projectId))
      .where(and(...conditions))
      .orderBy(desc(domainEvents.id))
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

  /** Calls back with the ids of events committed by any process. */
  async subscribe(onCommitted: (ids: number[]) => void): Promise<() => Promise<void>> {
    if (!this.db) throw new Error('Listening needs the database, not a transaction.');
    return this.db.listen(domainEventChannel, (payload) => {
      const ids = payload.split(',').map(Number).filter(Number.isSafeInteger);
      if (ids.length > 0) onCommitted(ids);
    });
  }
}
