import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  cohortPatients,
  cohorts,
  jobRuns,
  pathologyRequests,
  projectCohorts,
  projectMembers,
  projects,
  users,
} from '../db/schema';

export type CohortRow = typeof cohorts.$inferSelect;
export type NewCohort = typeof cohorts.$inferInsert;

/** A cohort with the name of whoever ordered it and the progress of its order job. */
export interface CohortListRow {
  cohort: CohortRow;
  creatorName: string | null;
  progress: number | null;
  progressMessage: string | null;
}

/** Cohorts, their patients and the pathology requests. Every read names its workspace. */
export class CohortRepository {
  constructor(private readonly orm: Orm) {}

  /** Inserts the cohort; null when the workspace already has a cohort of that name (any letter case). */
  async insert(cohort: NewCohort): Promise<CohortRow | null> {
    const rows = await this.orm.insert(cohorts).values(cohort).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async nameTaken(deviceId: string, name: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: cohorts.id })
      .from(cohorts)
      .where(and(eq(cohorts.deviceId, deviceId), sql`lower(${cohorts.name}) = lower(${name})`));
    return rows.length > 0;
  }

  async delete(cohortId: string): Promise<void> {
    await this.orm.delete(cohorts).where(eq(cohorts.id, cohortId));
  }

  async setJob(cohortId: string, jobId: string): Promise<void> {
    await this.orm.update(cohorts).set({ jobId }).where(eq(cohorts.id, cohortId));
  }

  /** The workspace's cohorts, newest first. */
  async list(deviceId: string): Promise<CohortListRow[]> {
    return this.selectWithCreator()
      .where(eq(cohorts.deviceId, deviceId))
      .orderBy(desc(cohorts.createdAt), asc(cohorts.name));
  }

  /** A cohort of the workspace, or null (also when it belongs to another workspace). */
  async find(deviceId: string, cohortId: string): Promise<CohortListRow | null> {
    const rows = await this.selectWithCreator().where(and(eq(cohorts.deviceId, deviceId), eq(cohorts.id, cohortId)));
    return rows[0] ?? null;
  }

  /**
   * The ids of the workspace's cohorts attached to a project the user is on (what a guest may read), or only
   * whether `cohortId` is one of them.
   */
  async onProjectsOf(deviceId: string, userId: string, cohortId?: string): Promise<Set<string>> {
    const rows = await this.orm
      .selectDistinct({ cohortId: projectCohorts.cohortId })
      .from(projectCohorts)
      .innerJoin(projects, eq(projects.id, projectCohorts.projectId))
      .innerJoin(
        projectMembers,
        and(eq(projectMembers.projectId, projectCohorts.projectId), eq(projectMembers.userId, userId)),
      )
      .where(and(eq(projects.deviceId, deviceId), cohortId ? eq(projectCohorts.cohortId, cohortId) : undefined));
    return new Set(rows.map((row) => row.cohortId));
  }

  /** A cohort by id alone (the order job). */
  async findById(cohortId: string): Promise<CohortRow | null> {
    const rows = await this.orm.select().from(cohorts).where(eq(cohorts.id, cohortId));
    return rows[0] ?? null;
  }

  /** Stores the drawn patients; a second call with the same patients changes nothing (retried jobs). */
  async addPatients(cohortId: string, patients: { patientIndex: number; patientId: string }[]): Promise<void> {
    if (patients.length === 0) return;
    await this.orm
      .insert(cohortPatients)
      .values(patients.map((patient, i) => ({ cohortId, ...patient, position: i + 1 })))
      .onConflictDoNothing();
  }

  /** The cohort's patients in cohort order. */
  async patients(cohortId: string): Promise<{ patientIndex: number; patientId: string }[]> {
    return this.orm
      .select({ patientIndex: cohortPatients.patientIndex, patientId: cohortPatients.patientId })
      .from(cohortPatients)
      .where(eq(cohortPatients.cohortId, cohortId))
      .orderBy(asc(cohortPatients.position));
  }

  async markReady(cohortId: string): Promise<void> {
    await this.orm
      .update(cohorts)
      .set({ status: 'ready', readyAt: sql`coalesce(${cohorts.readyAt}, now())`, error: null })
      .where(eq(cohorts.id, cohortId));
  }

  async markFailed(cohortId: string, error: string): Promise<void> {
    await this.orm
      .update(cohorts)
      .set({ status: 'failed', error })
      .where(and(eq(cohorts.id, cohortId), eq(cohorts.status, 'in_progress')));
  }

  /** Records a requested pathology once per user and workspace; true when it is new. */
  async requestPathology(deviceId: string, userId: string, name: string): Promise<boolean> {
    const rows = await this.orm
      .insert(pathologyRequests)
      .values({ deviceId, userId, name })
      .onConflictDoNothing()
      .returning({ id: pathologyRequests.id });
    return rows.length > 0;
  }

  /** Every pathology request, newest first (the support inbox reads them). */
  async pathologyRequests(limit: number): Promise<(typeof pathologyRequests.$inferSelect)[]> {
    return this.orm.select().from(pathologyRequests).orderBy(desc(pathologyRequests.createdAt)).limit(limit);
  }

  private selectWithCreator() {
    return this.orm
      .select({
        cohort: cohorts,
        creatorName: users.fullName,
        progress: jobRuns.progress,
        progressMessage: jobRuns.progressMessage,
      })
      .from(cohorts)
      .leftJoin(users, eq(users.id, cohorts.createdBy))
      .leftJoin(jobRuns, eq(jobRuns.id, cohorts.jobId))
      .$dynamic();
  }
}
