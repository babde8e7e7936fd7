import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { measurementOrders, projectCohorts, resultSnapshots } from '../db/schema';

export type ResultSnapshotRow = typeof resultSnapshots.$inferSelect;
export type NewResultSnapshot = Omit<typeof resultSnapshots.$inferInsert, 'takenAt'>;

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
