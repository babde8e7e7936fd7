import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { SsmRepository } from './ssm.repository';
import {
  cohortPatients,
  cohorts,
  deviceVersions,
  domainEvents,
  imagingDatasets,
  jobRuns,
  projectCohorts,
  projectDeviceVersions,
  simulations,
  ssms,
  trialPatients,
  trialReports,
  trials,
  users,
} from '../db/schema';

export type TrialRow = typeof trials.$inferSelect;
export type NewTrial = typeof trials.$inferInsert;
export type TrialPatientRow = typeof trialPatients.$inferSelect;
export type TrialReportRow = typeof trialReports.$inferSelect;

/** A trial with its cohort's and creator's names (lists and pages), and its outcomes' reading job's state. */
export interface TrialListRow {
  trial: TrialRow;
  /** The cohort's name, the SSM's for a trial on an SSM's named instances, or the imaging cohort's (one is set). */
  cohortName: string | null;
  ssmName: string | null;
  imagingName: string | null;
  createdByName: string | null;
  outcomeJobStatus: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | null;
  outcomeJobProgress: number | null;
  outcomeJobMessage: string | null;
}

/** A patient a new trial runs on: a cohort's patient, or an SSM's named instance (its room, name and shape). */
export interface TrialSubjectPatient {
  patientId: string;
  patientIndex: number;
  instance?: { name: string; shape: string } | null;
}

/** A patient of a trial with its run's state (null before the run exists). */
export interface TrialPatientWithRun {
  patient: TrialPatientRow;
  run: {
    status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
    progress: number;
    etaSeconds: number | null;
    error: string | null;
    finishedAt: Date | null;
  } | null;
}

/** Trials (issue 17) and their patients. */
export class TrialRepository {
  constructor(private readonly orm: Orm) {}

  /** Inserts the trial and one row per patient; null when the name is taken in the project. */
  async create(row: NewTrial, patients: readonly TrialSubjectPatient[]) {
    const inserted = await this.orm.insert(trials).values(row).onConflictDoNothing().returning();
    const trial = inserted[0];
    if (!trial) return null;
    if (patients.length > 0)
      await this.orm.insert(trialPatients).values(
        patients.map((p) => ({
          trialId: trial.id,
          patientId: p.patientId,
          patientIndex: p.patientIndex,
          instanceName: p.instance?.name ?? null,
          instanceShape: p.instance?.shape ?? null,
        })),
      );
    return trial;
  }

  async nameTaken(projectId: string, name: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: trials.id })
      .from(trials)
      .where(and(eq(trials.projectId, projectId), sql`lower(${trials.name}) = lower(${name})`));
    return rows.length > 0;
  }

  async findById(id: string): Promise<TrialRow | null> {
    const rows = await this.orm.select().from(trials).where(eq(trials.id, id));
    return rows[0] ?? null;
  }

  /**
   * Locks the trial's row to the end of the transaction (its patients' last finishers take turns) and answers the
   * counts of its last `trial.finished` event in the audit trail, if any: the end is recorded once per outcome.
   */
  async lockAndLastFinish(id: string): Promise<{ done: number; failed: number } | null> {
    await this.orm.select({ id: trials.id }).from(trials).where(eq(trials.id, id)).for('update');
    const [last] = await this.orm
      .select({ after: domainEvents.after })
      .from(domainEvents)
      .where(
        and(
          eq(domainEvents.objectType, 'trial'),
          eq(domainEvents.objectId, id),
          eq(domainEvents.action, 'trial.finished'),
        ),
      )
      .orderBy(desc(domainEvents.id))
      .limit(1);
    const after = last?.after as { done?: number; failed?: number } | undefined;
    return after ? { done: after.done ?? 0, failed: after.failed ?? 0 } : null;
  }

  async find(projectId: string, id: string): Promise<TrialListRow | null> {
    const rows = await this.listRows(and(eq(trials.projectId, projectId), eq(trials.id, id))!);
    return rows[0] ?? null;
  }

  async list(projectId: string): Promise<TrialListRow[]> {
    return this.listRows(eq(trials.projectId, projectId));
  }

  private listRows(where: ReturnType<typeof eq>): Promise<TrialListRow[]> {
    return this.orm
      .select({
        trial: trials,
        cohortName: cohorts.name,
        ssmName: ssms.name,
        imagingName: imagingDatasets.name,
        createdByName: users.fullName,
        outcomeJobStatus: jobRuns.status,
        outcomeJobProgress: jobRuns.progress,
        outcomeJobMessage: jobRuns.progressMessage,
      })
      .from(trials)
      .leftJoin(cohorts, eq(cohorts.id, trials.cohortId))
      .leftJoin(ssms, eq(ssms.id, trials.ssmId))
      .leftJoin(imagingDatasets, eq(imagingDatasets.id, trials.imagingDatasetId))
      .leftJoin(users, eq(users.id, trials.createdBy))
      .leftJoin(jobRuns, eq(jobRuns.id, trials.outcomeJobId))
      .where(where)
      .orderBy(desc(trials.createdAt), asc(trials.id));
  }

  /** The trial's row, locked to the end of the transaction (a change of its outcomes and their writers take turns). */
  async lock(id: string): Promise<TrialRow | null> {
    const rows = await this.orm.select().from(trials).where(eq(trials.id, id)).for('update');
    return rows[0] ?? null;
  }

  async update(id: string, values: Partial<NewTrial>): Promise<TrialRow | null> {
    const rows = await this.orm.update(trials).set(values).where(eq(trials.id, id)).returning();
    return rows[0] ?? null;
  }

  /** Deletes the trial with its patient rows and reports (their rooms and simulations stay). */
  async delete(id: string): Promise<void> {
    await this.orm.delete(trials).where(eq(trials.id, id));
  }

  /** The patients of trials with their runs' state, in the cohort's order. */
  async patients(trialIds: readonly string[]): Promise<TrialPatientWithRun[]> {
    if (trialIds.length === 0) return [];
    const rows = await this.orm
      .select({
        patient: trialPatients,
        status: simulations.status,
        progress: simulations.progress,
        etaSeconds: simulations.etaSeconds,
        error: simulations.error,
        finishedAt: simulations.finishedAt,
      })
      .from(trialPatients)
      .leftJoin(simulations, eq(simulations.id, trialPatients.simulationId))
      .where(inArray(trialPatients.trialId, [...trialIds]))
      .orderBy(asc(trialPatients.trialId), asc(trialPatients.patientIndex));
    return rows.map((r) => ({
      patient: r.patient,
      run:
        r.status === null
          ? null
          : {
              status: r.status,
              progress: r.progress ?? 0,
              etaSeconds: r.etaSeconds,
              error: r.error,
              finishedAt: r.finishedAt,
            },
    }));
  }

  async patient(trialId: string, patientId: string): Promise<TrialPatientRow | null> {
    const rows = await this.orm
      .select()
      .from(trialPatients)
      .where(and(eq(trialPatients.trialId, trialId), eq(trialPatients.patientId, patientId)));
    return rows[0] ?? null;
  }

  /** The trial patient whose run this simulation is, if any. */
  async patientOfSimulation(simulationId: string): Promise<TrialPatientRow | null> {
    const rows = await this.orm.select().from(trialPatients).where(eq(trialPatients.simulationId, simulationId));
    return rows[0] ?? null;
  }

  async updatePatient(
    trialId: string,
    patientId: string,
    values: Partial<typeof trialPatients.$inferInsert>,
  ): Promise<TrialPatientRow | null> {
    const rows = await this.orm
      .update(trialPatients)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(trialPatients.trialId, trialId), eq(trialPatients.patientId, patientId)))
      .returning();
    return rows[0] ?? null;
  }

  /** A cohort of the project, with its status; null when it is not one of the project's. */
  async projectCohort(projectId: string, cohortId: string) {
    const rows = await this.orm
      .select({ id: cohorts.id, name: cohorts.name, status: cohorts.status })
      .from(projectCohorts)
      .innerJoin(cohorts, eq(cohorts.id, projectCohorts.cohortId))
      .where(and(eq(projectCohorts.projectId, projectId), eq(projectCohorts.cohortId, cohortId)));
    return rows[0] ?? null;
  }

  /** The cohort's patients in its order. */
  async cohortPatients(cohortId: string): Promise<{ patientId: string; patientIndex: number }[]> {
    return this.orm
      .select({ patientId: cohortPatients.patientId, patientIndex: cohortPatients.patientIndex })
      .from(cohortPatients)
      .where(eq(cohortPatients.cohortId, cohortId))
      .orderBy(asc(cohortPatients.position));
  }

  /** A device version of the project with its status; null when it is not on the project. */
  async projectVersion(projectId: string, versionId: string) {
    const rows = await this.orm
      .select({ id: deviceVersions.id, name: deviceVersions.name, status: deviceVersions.status })
      .from(projectDeviceVersions)
      .innerJoin(deviceVersions, eq(deviceVersions.id, projectDeviceVersions.versionId))
      .where(and(eq(projectDeviceVersions.projectId, projectId), eq(projectDeviceVersions.versionId, versionId)));
    return rows[0] ?? null;
  }

  /** The project's ready cohorts with their patient counts, and its ready device versions (a new trial's choices). */
  async choices(projectId: string) {
    const cohortRows = await this.orm
      .select({ id: cohorts.id, name: cohorts.name, patients: sql<number>`count(${cohortPatients.patientIndex})::int` })
      .from(projectCohorts)
      .innerJoin(cohorts, eq(cohorts.id, projectCohorts.cohortId))
      .leftJoin(cohortPatients, eq(cohortPatients.cohortId, cohorts.id))
      .where(and(eq(projectCohorts.projectId, projectId), eq(cohorts.status, 'ready')))
      .groupBy(cohorts.id, cohorts.name)
      .orderBy(asc(cohorts.name));
    const versions = await this.orm
      .select({ id: deviceVersions.id, name: deviceVersions.name })
      .from(projectDeviceVersions)
      .innerJoin(deviceVersions, eq(deviceVersions.id, projectDeviceVersions.versionId))
      .where(and(eq(projectDeviceVersions.projectId, projectId), eq(deviceVersions.status, 'ready')))
      .orderBy(asc(deviceVersions.name));
    const ssmRows = await this.orm
      .select({ id: ssms.id, name: ssms.name })
      .from(ssms)
      .where(and(eq(ssms.projectId, projectId), eq(ssms.status, 'ready')))
      .orderBy(asc(ssms.name));
    const counts = await Promise.all(ssmRows.map(async (m) => (await this.ssmInstances(projectId, m.id)).length));
    return {
      cohorts: cohortRows.map((c) => ({ ...c, source: 'virtual' as const })),
      ssms: ssmRows.map((m, i) => ({ ...m, instances: counts[i] ?? 0 })),
      versions,
    };
  }

  /** An SSM of the project with its status; null when it is not one of the project's. */
  async projectSsm(projectId: string, ssmId: string) {
    const rows = await this.orm
      .select({ id: ssms.id, name: ssms.name, status: ssms.status })
      .from(ssms)
      .where(and(eq(ssms.projectId, projectId), eq(ssms.id, ssmId)));
    return rows[0] ?? null;
  }

  /** An SSM's named instances (SsmRepository.namedInstances) as a trial's patients, keyed by their room. */
  async ssmInstances(projectId: string, ssmId: string): Promise<TrialSubjectPatient[]> {
    const instances = await new SsmRepository(this.orm).namedInstances(projectId, ssmId);
    return instances.map((r, i) => ({
      patientId: r.roomId,
      patientIndex: i,
      instance: { name: r.name, shape: r.shape },
    }));
  }

  /** The trials of a project on a cohort, virtual or imaging (its dataset's id), for the population analysis. */
  async trialsOnCohort(projectId: string, cohortId: string): Promise<TrialRow[]> {
    return this.orm
      .select()
      .from(trials)
      .where(
        and(eq(trials.projectId, projectId), or(eq(trials.cohortId, cohortId), eq(trials.imagingDatasetId, cohortId))),
      )
      .orderBy(desc(trials.createdAt));
  }

  /** The trial's reports, newest first. */
  async reports(trialId: string): Promise<TrialReportRow[]> {
    return this.orm
      .select()
      .from(trialReports)
      .where(eq(trialReports.trialId, trialId))
      .orderBy(desc(trialReports.createdAt), asc(trialReports.id));
  }

  async report(trialId: string, reportId: string): Promise<TrialReportRow | null> {
    const rows = await this.orm
      .select()
      .from(trialReports)
      .where(and(eq(trialReports.trialId, trialId), eq(trialReports.id, reportId)));
    return rows[0] ?? null;
  }

  async reportById(reportId: string): Promise<TrialReportRow | null> {
    const rows = await this.orm.select().from(trialReports).where(eq(trialReports.id, reportId));
    return rows[0] ?? null;
  }

  async createReport(row: typeof trialReports.$inferInsert): Promise<TrialReportRow> {
    const rows = await this.orm.insert(trialReports).values(row).returning();
    return rows[0]!;
  }

  async updateReport(id: string, values: Partial<typeof trialReports.$inferInsert>): Promise<TrialReportRow | null> {
    const rows = await this.orm.update(trialReports).set(values).where(eq(trialReports.id, id)).returning();
    return rows[0] ?? null;
  }

  /** People's names by id (reports' authors). */
  async userNames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.orm
      .select({ id: users.id, name: users.fullName })
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** What a report says of the cohort: synthetic, with its model versions, criteria and seeds. */
  async cohortDescription(cohortId: string) {
    const rows = await this.orm
      .select({
        name: cohorts.name,
        description: cohorts.description,
        criteria: cohorts.criteria,
        size: cohorts.size,
        modelVersion: cohorts.modelVersion,
        meshModelVersion: cohorts.meshModelVersion,
        populationSeed: cohorts.populationSeed,
        populationSize: cohorts.populationSize,
        sampleSeed: cohorts.sampleSeed,
      })
      .from(cohorts)
      .where(eq(cohorts.id, cohortId));
    return rows[0] ?? null;
  }

  /** The runs' provenance for a report: resolved parameters, scenario version, the job's worker and times. */
  async runProvenance(simulationIds: readonly string[]) {
    if (simulationIds.length === 0) return [];
    return this.orm
      .select({
        simulationId: simulations.id,
        parameters: simulations.parameters,
        scenarioVersion: simulations.scenarioVersion,
        endTime: simulations.endTime,
        workerId: jobRuns.workerId,
        attempts: jobRuns.attempts,
        startedAt: jobRuns.startedAt,
        finishedAt: jobRuns.finishedAt,
      })
      .from(simulations)
      .leftJoin(jobRuns, eq(jobRuns.id, simulations.jobId))
      .where(inArray(simulations.id, [...simulationIds]));
  }

  /** Whether the trial has been re-run on the version already (automatic device CI does it once). */
  async rerunOn(trialId: string, versionId: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: trials.id })
      .from(trials)
      .where(and(eq(trials.basedOnTrialId, trialId), eq(trials.deviceVersionId, versionId)));
    return rows.length > 0;
  }

  /** The project's trials that re-run automatically on a new device version (device CI). */
  async autoRerunTrials(projectId: string): Promise<TrialRow[]> {
    return this.orm
      .select()
      .from(trials)
      .where(and(eq(trials.projectId, projectId), eq(trials.autoRerun, true)))
      .orderBy(asc(trials.createdAt));
  }
}
