import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Orm } from '../db/client';
import { cohorts, jobRuns, projectCohorts, rooms, ssms, trialPatients, users } from '../db/schema';
import type { CohortRow } from './cohort.repository';

export type SsmRow = typeof ssms.$inferSelect;
export type NewSsm = typeof ssms.$inferInsert;

/** An SSM with the name of whoever created it, the progress of its build job and the version rebuilding it. */
export interface SsmListRow {
  ssm: SsmRow;
  creatorName: string | null;
  progress: number | null;
  progressMessage: string | null;
  rebuiltAs: { id: string; version: number; status: SsmRow['status'] } | null;
}

/** The rebuild of an SSM (at most one: `ssms_rebuilt_from_uq`). */
const rebuild = alias(ssms, 'rebuild');

/** Statistical shape models of projects, and the project's cohorts they are built from. Every read names its project. */
export class SsmRepository {
  constructor(private readonly orm: Orm) {}

  private select() {
    return this.orm
      .select({
        ssm: ssms,
        creatorName: users.fullName,
        progress: jobRuns.progress,
        progressMessage: jobRuns.progressMessage,
        rebuiltAs: { id: rebuild.id, version: rebuild.version, status: rebuild.status },
      })
      .from(ssms)
      .leftJoin(users, eq(users.id, ssms.createdBy))
      .leftJoin(jobRuns, eq(jobRuns.id, ssms.jobId))
      .leftJoin(rebuild, eq(rebuild.rebuiltFrom, ssms.id))
      .$dynamic();
  }

  /** The project's SSMs, newest first. */
  async list(projectId: string): Promise<SsmListRow[]> {
    return this.select().where(eq(ssms.projectId, projectId)).orderBy(desc(ssms.createdAt), asc(ssms.id));
  }

  /** An SSM of the project, or null (also when it belongs to another project). */
  async find(projectId: string, ssmId: string): Promise<SsmListRow | null> {
    const rows = await this.select().where(and(eq(ssms.projectId, projectId), eq(ssms.id, ssmId)));
    return rows[0] ?? null;
  }

  async findById(ssmId: string): Promise<SsmRow | null> {
    const rows = await this.orm.select().from(ssms).where(eq(ssms.id, ssmId));
    return rows[0] ?? null;
  }

  /** The project's SSM with this canonical configuration, if any (the duplicate check). */
  async findByConfiguration(projectId: string, configurationKey: string): Promise<SsmRow | null> {
    const rows = await this.orm
      .select()
      .from(ssms)
      .where(and(eq(ssms.projectId, projectId), eq(ssms.configurationKey, configurationKey)));
    return rows[0] ?? null;
  }

  /**
   * Inserts the SSM unless the project has one of the same configuration and version, or the version it rebuilds
   * has a rebuild already (the unique indexes decide, so two concurrent creations or rebuilds cannot both
   * succeed); answers null then.
   */
  async insert(ssm: NewSsm): Promise<SsmRow | null> {
    const rows = await this.orm.insert(ssms).values(ssm).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async setJob(ssmId: string, jobId: string): Promise<void> {
    await this.orm.update(ssms).set({ jobId }).where(eq(ssms.id, ssmId));
  }

  /**
   * Marks a model being built ready with its summary; false when it was settled already (ready, or failed for good:
   * a retried or stale job changes nothing). A model only ever goes in progress → ready or in progress → failed.
   */
  async markReady(ssmId: string, summary: Record<string, unknown>): Promise<boolean> {
    const rows = await this.orm
      .update(ssms)
      .set({ status: 'ready', summary, error: null, readyAt: sql`coalesce(${ssms.readyAt}, now())` })
      .where(and(eq(ssms.id, ssmId), eq(ssms.status, 'in_progress')))
      .returning({ id: ssms.id });
    return rows.length > 0;
  }

  /** Marks a model that is still being built as failed for good; answers the row, or null if it was not building. */
  async markFailed(ssmId: string, error: string): Promise<SsmRow | null> {
    const rows = await this.orm
      .update(ssms)
      .set({ status: 'failed', error })
      .where(and(eq(ssms.id, ssmId), eq(ssms.status, 'in_progress')))
      .returning();
    return rows[0] ?? null;
  }

  /**
   * A failed model in progress again for its retry (docs/decisions/ssm-versions.md): no error, no job yet, its
   * shapes counted again; answers the row as it was (failed, with its error), or null when it was not failed (a
   * concurrent retry got there first).
   */
  async reopen(ssmId: string, shapeCount: number): Promise<SsmRow | null> {
    const before = await this.orm
      .select()
      .from(ssms)
      .where(and(eq(ssms.id, ssmId), eq(ssms.status, 'failed')))
      .for('update');
    const row = before[0];
    if (!row) return null;
    await this.orm
      .update(ssms)
      .set({ status: 'in_progress', error: null, jobId: null, shapeCount })
      .where(eq(ssms.id, ssmId));
    return row;
  }

  /** Those of the cohorts that are on the project (full rows: the patients' records are read through them). */
  async projectCohorts(projectId: string, cohortIds: readonly string[]): Promise<CohortRow[]> {
    if (cohortIds.length === 0) return [];
    const rows = await this.orm
      .select({ cohort: cohorts })
      .from(projectCohorts)
      .innerJoin(cohorts, eq(cohorts.id, projectCohorts.cohortId))
      .where(and(eq(projectCohorts.projectId, projectId), inArray(projectCohorts.cohortId, [...cohortIds])));
    return rows.map((row) => row.cohort);
  }

  /**
   * The SSMs waiting for a cohort (issue 18: configured in the project wizard on a cohort still being ordered): in
   * progress without a build job, built from this cohort. Locked until the caller's transaction ends, so two cohorts
   * of one SSM becoming ready at once queue its build once (the second sees the first committed).
   */
  async waitingOn(cohortId: string): Promise<SsmRow[]> {
    return this.orm
      .select()
      .from(ssms)
      .where(
        and(
          eq(ssms.status, 'in_progress'),
          isNull(ssms.jobId),
          sql`${ssms.configuration} -> 'cohortIds' @> ${JSON.stringify([cohortId])}::jsonb`,
        ),
      )
      .orderBy(asc(ssms.createdAt), asc(ssms.id))
      .for('update');
  }

  /**
   * The id, name and status of cohorts. `lock`: each row locked against a change of status until the caller's
   * transaction ends (FOR SHARE: a cohort's markReady waits for it, and it waits for a markReady under way).
   */
  async cohortStates(
    cohortIds: readonly string[],
    lock: boolean,
  ): Promise<{ id: string; name: string; status: string }[]> {
    if (cohortIds.length === 0) return [];
    const query = this.orm
      .select({ id: cohorts.id, name: cohorts.name, status: cohorts.status })
      .from(cohorts)
      .where(inArray(cohorts.id, [...cohortIds]))
      .orderBy(asc(cohorts.id))
      .$dynamic();
    return lock ? query.for('share') : query;
  }

  /** The names of cohorts not ready yet among these (what SSMs without a build job wait for), by id. */
  async pendingCohorts(cohortIds: readonly string[]): Promise<{ id: string; name: string }[]> {
    if (cohortIds.length === 0) return [];
    return this.orm
      .select({ id: cohorts.id, name: cohorts.name })
      .from(cohorts)
      .where(and(inArray(cohorts.id, [...cohortIds]), eq(cohorts.status, 'in_progress')))
      .orderBy(asc(cohorts.name), asc(cohorts.id));
  }

  /** Those of the cohorts that belong to the workspace (an SSM configured before its project exists). */
  async workspaceCohorts(deviceId: string, cohortIds: readonly string[]): Promise<CohortRow[]> {
    if (cohortIds.length === 0) return [];
    return this.orm
      .select()
      .from(cohorts)
      .where(and(eq(cohorts.deviceId, deviceId), inArray(cohorts.id, [...cohortIds])));
  }

  /**
   * An SSM's named instances: the project's rooms on it (each on the shape its view saved, else the mean), by name,
   * less the rooms trials made (a trial's patient room is not an instance of its own).
   */
  async namedInstances(
    projectId: string,
    ssmId: string,
  ): Promise<{ roomId: string; name: string; shape: string; scene: Record<string, unknown> }[]> {
    const rows = await this.orm
      .select({
        id: rooms.id,
        name: rooms.name,
        shape: sql<string | null>`${rooms.scene} -> 'view' ->> 'phase'`,
        scene: rooms.scene,
      })
      .from(rooms)
      .where(
        and(
          eq(rooms.projectId, projectId),
          eq(rooms.ssmId, ssmId),
          sql`not exists (select 1 from ${trialPatients} where ${trialPatients.roomId} = ${rooms.id})`,
        ),
      )
      .orderBy(asc(rooms.name), asc(rooms.id));
    return rows.map((r) => ({ roomId: r.id, name: r.name, shape: r.shape ?? 'mean', scene: r.scene }));
  }
}
