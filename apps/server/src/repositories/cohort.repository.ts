import { and, asc, desc, eq, exists, isNull, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  cohortPatients,
  cohorts,
  imagingDatasets,
  jobRuns,
  pathologyRequests,
  projectCohorts,
  projectMembers,
  projects,
  users,
} from '../db/schema';

export type CohortRow = typeof cohorts.$inferSelect;
export type NewCohort = typeof cohorts.$inferInsert;

/** A patient of a cohort as stored: its index, id and full record (null only for unreadable legacy cohorts). */
export interface StoredPatientRow {
  patientIndex: number;
  patientId: string;
  record: unknown;
}

/** A drawn patient to store: the record is the generator's output, written as JSON. */
export interface NewStoredPatient {
  patientIndex: number;
  patientId: string;
  record: Record<string, unknown>;
}

const storedPatientColumns = {
  patientIndex: cohortPatients.patientIndex,
  patientId: cohortPatients.patientId,
  record: cohortPatients.record,
};

/** A cohort with the name of whoever ordered it and the progress of its order job. */
export interface CohortListRow {
  cohort: CohortRow;
  creatorName: string | null;
  progress: number | null;
  progressMessage: string | null;
}

/** Cohorts, their patients and the pathology requests. Every read names its workspace. */
export class CohortRepository {
  // The cohorts page's list, built once on first use (read often; a unit of work's repositories may never need it).
  private listQuery?: ReturnType<CohortRepository['prepareList']>;

  constructor(private readonly orm: Orm) {}

  /**
   * Inserts the cohort with its drawn patients in one transaction; null (and nothing stored) when the workspace
   * already has a cohort of that name (any letter case).
   */
  async insert(cohort: NewCohort, patients: NewStoredPatient[]): Promise<CohortRow | null> {
    return this.orm.transaction(async (tx) => {
      const rows = await tx.insert(cohorts).values(cohort).onConflictDoNothing().returning();
      const row = rows[0];
      if (row) await new CohortRepository(tx).addPatients(row.id, patients);
      return row ?? null;
    });
  }

  /**
   * Whether a patient cohort of the workspace has this name in any letter case (spec §3, §5 "Cohort name"): an
   * ordered cohort or an imaging dataset, which a project takes as its cohort of uploaded patients.
   */
  async nameTaken(deviceId: string, name: string): Promise<boolean> {
    const ordered = await this.orm
      .select({ id: cohorts.id })
      .from(cohorts)
      .where(and(eq(cohorts.deviceId, deviceId), sql`lower(${cohorts.name}) = lower(${name})`))
      .limit(1);
    if (ordered.length > 0) return true;
    const uploaded = await this.orm
      .select({ id: imagingDatasets.id })
      .from(imagingDatasets)
      .where(and(eq(imagingDatasets.deviceId, deviceId), sql`lower(${imagingDatasets.name}) = lower(${name})`))
      .limit(1);
    return uploaded.length > 0;
  }

  async delete(cohortId: string): Promise<void> {
    await this.orm.delete(cohorts).where(eq(cohorts.id, cohortId));
  }

  async setJob(cohortId: string, jobId: string): Promise<void> {
    await this.orm.update(cohorts).set({ jobId }).where(eq(cohorts.id, cohortId));
  }

  /** The workspace's cohorts, newest first. */
  async list(deviceId: string): Promise<CohortListRow[]> {
    this.listQuery ??= this.prepareList();
    return this.listQuery.execute({ deviceId });
  }

  private prepareList() {
    return this.selectWithCreator()
      .where(eq(cohorts.deviceId, sql.placeholder('deviceId')))
      .orderBy(desc(cohorts.createdAt), asc(cohorts.name))
      .prepare('workspace_cohorts');
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

  /** Stores the drawn patients with their records; a second call with the same patients changes nothing. */
  async addPatients(cohortId: string, patients: NewStoredPatient[]): Promise<void> {
    if (patients.length === 0) return;
    await this.orm
      .insert(cohortPatients)
      .values(patients.map((patient, i) => ({ cohortId, ...patient, position: i + 1 })))
      .onConflictDoNothing();
  }

  /** The cohort's patients in cohort order, with their stored records. */
  async patients(cohortId: string): Promise<StoredPatientRow[]> {
    return this.orm
      .select(storedPatientColumns)
      .from(cohortPatients)
      .where(eq(cohortPatients.cohortId, cohortId))
      .orderBy(asc(cohortPatients.position));
  }

  /** One patient of the cohort by its id (`SYN-…`), or null. */
  async patient(cohortId: string, patientId: string): Promise<StoredPatientRow | null> {
    const rows = await this.orm
      .select(storedPatientColumns)
      .from(cohortPatients)
      .where(and(eq(cohortPatients.cohortId, cohortId), eq(cohortPatients.patientId, patientId)));
    return rows[0] ?? null;
  }

  /** Cohorts with a patient whose record is not stored (ordered before migration 0007), oldest first. */
  async withMissingRecords(): Promise<CohortRow[]> {
    return this.orm
      .select()
      .from(cohorts)
      .where(
        exists(
          this.orm
            .select({ one: sql`1` })
            .from(cohortPatients)
            .where(and(eq(cohortPatients.cohortId, cohorts.id), isNull(cohortPatients.record))),
        ),
      )
      .orderBy(asc(cohorts.createdAt));
  }

  /**
   * Fills records that are missing, in one transaction; a record already stored is never replaced (the evidence
   * of an order does not change). Answers how many were written.
   */
  async fillMissingRecords(cohortId: string, patients: { patientIndex: number; record: Record<string, unknown> }[]) {
    return this.orm.transaction(async (tx) => {
      let written = 0;
      for (const { patientIndex, record } of patients) {
        const rows = await tx
          .update(cohortPatients)
          .set({ record })
          .where(
            and(
              eq(cohortPatients.cohortId, cohortId),
              eq(cohortPatients.patientIndex, patientIndex),
              isNull(cohortPatients.record),
            ),
          )
          .returning({ patientIndex: cohortPatients.patientIndex });
        written += rows.length;
      }
      return written;
    });
  }

  /** Marks the cohort ready, naming the mesh model that built its ordered meshes. */
  /** Marks the cohort ready; false when it was ready already (a retried job: nothing changes). */
  /**
   * Marks an order in progress ready; false when it was settled already (ready, or failed for good: a retried or
   * stale job changes nothing). An order only ever goes in progress → ready or in progress → failed.
   */
  async markReady(cohortId: string, meshModelVersion: string): Promise<boolean> {
    const rows = await this.orm
      .update(cohorts)
      .set({ status: 'ready', readyAt: sql`coalesce(${cohorts.readyAt}, now())`, error: null, meshModelVersion })
      .where(and(eq(cohorts.id, cohortId), eq(cohorts.status, 'in_progress')))
      .returning({ id: cohorts.id });
    return rows.length > 0;
  }

  /** Marks an order in progress failed; false when it was not in progress. */
  async markFailed(cohortId: string, error: string): Promise<boolean> {
    const rows = await this.orm
      .update(cohorts)
      .set({ status: 'failed', error })
      .where(and(eq(cohorts.id, cohortId), eq(cohorts.status, 'in_progress')))
      .returning({ id: cohorts.id });
    return rows.length > 0;
  }

  /** Records a requested pathology once per user and workspace; true when it is new. */
  /** Answers the new request's id, or null when this pathology was requested before. */
  async requestPathology(deviceId: string, userId: string, name: string): Promise<string | null> {
    const rows = await this.orm
      .insert(pathologyRequests)
      .values({ deviceId, userId, name })
      .onConflictDoNothing()
      .returning({ id: pathologyRequests.id });
    return rows[0]?.id ?? null;
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
