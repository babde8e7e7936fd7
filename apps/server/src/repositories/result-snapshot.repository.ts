import { and, asc, eq, exists, inArray, isNull, lt, not, sql, type AnyColumn } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  domainEvents,
  measurementOrders,
  projectCohorts,
  projects,
  resultSnapshots,
  simulations,
  ssms,
  trials,
} from '../db/schema';

export type ResultSnapshotRow = typeof resultSnapshots.$inferSelect;
export type NewResultSnapshot = Omit<typeof resultSnapshots.$inferInsert, 'takenAt'>;

/** A finished piece of evidence that has no results snapshot (work finished before migration 0027). */
export interface UnsnapshottedObject {
  objectType: 'simulation' | 'trial' | 'measurement' | 'ssm';
  objectId: string;
  deviceId: string;
  /** Null for a measurement order (a workspace's evidence outside any project). */
  projectId: string | null;
  /** Who started the work: the backfill's event is the system's, for them. */
  createdBy: string | null;
}

/** Results snapshots (issue 20 item 7): appended, read by id; the database refuses changes (migration 0027). */
export class ResultSnapshotRepository {
  constructor(private readonly orm: Orm) {}

  async insert(snapshot: NewResultSnapshot): Promise<void> {
    await this.orm.insert(resultSnapshots).values(snapshot);
  }

  /** The object's next revision: one more than its snapshots so far. */
  async nextRevision(objectType: string, objectId: string): Promise<number> {
    const [row] = await this.orm
      .select({ n: sql<number>`count(*)::int` })
      .from(resultSnapshots)
      .where(and(eq(resultSnapshots.objectType, objectType), eq(resultSnapshots.objectId, objectId)));
    return Number(row?.n ?? 0) + 1;
  }

  /**
   * Serialises the keeping of one object's snapshots in this transaction (two backfills of two processes starting
   * at once): the second waits for the first's commit, then finds its snapshot.
   */
  async lockObject(objectType: string, objectId: string): Promise<void> {
    await this.orm.execute(sql`select pg_advisory_xact_lock(hashtext(${`result-snapshot:${objectType}:${objectId}`}))`);
  }

  /**
   * Finished evidence created before `before` that has no results snapshot: completed simulations, ready measurement
   * orders and shape models, trials with a `trial.finished` event (and not cancelled). Work finished by a server that
   * keeps snapshots has one by construction (kept in the transaction of its finish), so this is the work finished
   * before migration 0027.
   */
  async unsnapshotted(before: Date): Promise<UnsnapshottedObject[]> {
    const none = (objectType: string, id: AnyColumn) =>
      not(
        exists(
          this.orm
            .select({ one: sql`1` })
            .from(resultSnapshots)
            .where(and(eq(resultSnapshots.objectType, objectType), eq(resultSnapshots.objectId, id))),
        ),
      );
    const [simulationRows, trialRows, measurementRows, ssmRows] = await Promise.all([
      this.orm
        .select({
          objectId: simulations.id,
          deviceId: projects.deviceId,
          projectId: simulations.projectId,
          createdBy: simulations.createdBy,
        })
        .from(simulations)
        .innerJoin(projects, eq(projects.id, simulations.projectId))
        .where(
          and(
            eq(simulations.status, 'completed'),
            lt(simulations.createdAt, before),
            none('simulation', simulations.id),
          ),
        )
        .orderBy(asc(simulations.createdAt)),
      this.orm
        .select({
          objectId: trials.id,
          deviceId: projects.deviceId,
          projectId: trials.projectId,
          createdBy: trials.createdBy,
        })
        .from(trials)
        .innerJoin(projects, eq(projects.id, trials.projectId))
        .where(
          and(
            isNull(trials.cancelledAt),
            lt(trials.createdAt, before),
            exists(
              this.orm
                .select({ one: sql`1` })
                .from(domainEvents)
                .where(
                  and(
                    eq(domainEvents.objectType, 'trial'),
                    eq(domainEvents.objectId, sql`${trials.id}::text`),
                    eq(domainEvents.action, 'trial.finished'),
                  ),
                ),
            ),
            none('trial', trials.id),
          ),
        )
        .orderBy(asc(trials.createdAt)),
      this.orm
        .select({
          objectId: measurementOrders.id,
          deviceId: measurementOrders.deviceId,
          createdBy: measurementOrders.createdBy,
        })
        .from(measurementOrders)
        .where(
          and(
            eq(measurementOrders.status, 'ready'),
            lt(measurementOrders.createdAt, before),
            none('measurement', measurementOrders.id),
          ),
        )
        .orderBy(asc(measurementOrders.createdAt)),
      this.orm
        .select({ objectId: ssms.id, deviceId: ssms.deviceId, projectId: ssms.projectId, createdBy: ssms.createdBy })
        .from(ssms)
        .where(and(eq(ssms.status, 'ready'), lt(ssms.createdAt, before), none('ssm', ssms.id)))
        .orderBy(asc(ssms.createdAt)),
    ]);
    return [
      ...simulationRows.map((row) => ({ objectType: 'simulation' as const, ...row })),
      ...trialRows.map((row) => ({ objectType: 'trial' as const, ...row })),
      ...measurementRows.map((row) => ({ objectType: 'measurement' as const, projectId: null, ...row })),
      ...ssmRows.map((row) => ({ objectType: 'ssm' as const, ...row })),
    ];
  }

  /** The snapshots with these ids (of any workspace: the caller knows them from events it may read). */
  async byIds(ids: readonly string[]): Promise<ResultSnapshotRow[]> {
    if (ids.length === 0) return [];
    return this.orm
      .select()
      .from(resultSnapshots)
      .where(inArray(resultSnapshots.id, [...ids]));
  }

  /** One snapshot of a workspace, or null. */
  async find(deviceId: string, id: string): Promise<ResultSnapshotRow | null> {
    const [row] = await this.orm
      .select()
      .from(resultSnapshots)
      .where(and(eq(resultSnapshots.deviceId, deviceId), eq(resultSnapshots.id, id)));
    return row ?? null;
  }

  /**
   * The snapshots of a workspace's measurement orders on the cohorts of these projects, oldest first: a measurement
   * belongs to the workspace, and enters a project's design history file through the project's cohorts.
   */
  async measurementsOnProjects(deviceId: string, projectIds: readonly string[]): Promise<ResultSnapshotRow[]> {
    if (projectIds.length === 0) return [];
    const orders = this.orm
      .select({ id: measurementOrders.id })
      .from(measurementOrders)
      .innerJoin(projectCohorts, eq(projectCohorts.cohortId, measurementOrders.cohortId))
      .where(and(eq(measurementOrders.deviceId, deviceId), inArray(projectCohorts.projectId, [...projectIds])));
    return this.orm
      .select()
      .from(resultSnapshots)
      .where(
        and(
          eq(resultSnapshots.deviceId, deviceId),
          eq(resultSnapshots.objectType, 'measurement'),
          inArray(resultSnapshots.objectId, orders),
        ),
      )
      .orderBy(asc(resultSnapshots.takenAt), asc(resultSnapshots.revision));
  }
}
