import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  analyses,
  cohortPatients,
  cohorts,
  imagingDatasets,
  projectCohorts,
  projectDeviceVersions,
  users,
} from '../db/schema';

export type AnalysisRow = typeof analyses.$inferSelect;
export type NewAnalysis = typeof analyses.$inferInsert;

/**
 * The cohort an analysis is about, as its answers name it: a virtual cohort, or an imaging dataset of the project
 * (its delivered patients; `size` counts them, `status` is the dataset's).
 */
export interface AnalysisCohortRow {
  id: string;
  name: string;
  size: number;
  status: string;
  source: 'virtual' | 'imaging';
}

/** An imaging dataset as the cohort of an analysis. */
const imagingCohort = {
  id: imagingDatasets.id,
  name: imagingDatasets.name,
  size: sql<number>`coalesce(jsonb_array_length(${imagingDatasets.models}->'patients'), 0)::int`,
  status: imagingDatasets.status,
  source: sql<'imaging'>`'imaging'`,
};

/** An analysis with its cohort and the name of whoever created it. */
export interface AnalysisListRow {
  analysis: AnalysisRow;
  cohort: AnalysisCohortRow;
  creatorName: string | null;
}

/** The inputs an analysis may change (revision and timestamps are the repository's). */
export type AnalysisChanges = Partial<Pick<AnalysisRow, 'name' | 'parameters' | 'settings' | 'excluded'>>;

/** Population analyses of projects and the project facts their checks need. Every read names its project. */
export class AnalysisRepository {
  constructor(private readonly orm: Orm) {}

  private selectWithCohort() {
    return this.orm
      .select({
        analysis: analyses,
        // Exactly one of the two is set (analyses_subject_ck).
        cohort: sql<AnalysisCohortRow>`case when ${cohorts.id} is not null
          then json_build_object('id', ${cohorts.id}, 'name', ${cohorts.name}, 'size', ${cohorts.size},
            'status', ${cohorts.status}, 'source', 'virtual')
          else json_build_object('id', ${imagingCohort.id}, 'name', ${imagingCohort.name}, 'size', ${imagingCohort.size},
            'status', ${imagingCohort.status}, 'source', 'imaging') end`,
        creatorName: users.fullName,
      })
      .from(analyses)
      .leftJoin(cohorts, eq(cohorts.id, analyses.cohortId))
      .leftJoin(imagingDatasets, eq(imagingDatasets.id, analyses.imagingDatasetId))
      .leftJoin(users, eq(users.id, analyses.createdBy));
  }

  /** The project's analyses, most recently changed first. */
  async list(projectId: string): Promise<AnalysisListRow[]> {
    return this.selectWithCohort()
      .where(eq(analyses.projectId, projectId))
      .orderBy(desc(analyses.updatedAt), asc(analyses.id));
  }

  /** An analysis of the project, or null (also when it belongs to another project). */
  async find(projectId: string, analysisId: string): Promise<AnalysisListRow | null> {
    const rows = await this.selectWithCohort().where(
      and(eq(analyses.projectId, projectId), eq(analyses.id, analysisId)),
    );
    return rows[0] ?? null;
  }

  async insert(analysis: NewAnalysis): Promise<string> {
    const [row] = await this.orm.insert(analyses).values(analysis).returning({ id: analyses.id });
    if (!row) throw new Error('The analysis was not stored.');
    return row.id;
  }

  /**
   * Applies the changes only when the stored revision is still `basedOn`, bumping it in the same statement (so
   * two writers of one revision cannot both win). Answers false when the revision moved on meanwhile.
   */
  async update(projectId: string, analysisId: string, basedOn: number, changes: AnalysisChanges): Promise<boolean> {
    const rows = await this.orm
      .update(analyses)
      .set({ ...changes, revision: sql`${analyses.revision} + 1`, updatedAt: new Date() })
      .where(and(eq(analyses.projectId, projectId), eq(analyses.id, analysisId), eq(analyses.revision, basedOn)))
      .returning({ id: analyses.id });
    return rows.length > 0;
  }

  /**
   * The cohort when it is one of the project's cohorts, or one of its imaging datasets that passed the re-check
   * (modelling or ready), else null.
   */
  async projectCohort(projectId: string, cohortId: string): Promise<AnalysisCohortRow | null> {
    const rows = await this.orm
      .select({
        id: cohorts.id,
        name: cohorts.name,
        size: cohorts.size,
        status: cohorts.status,
        source: sql<'virtual'>`'virtual'`,
      })
      .from(projectCohorts)
      .innerJoin(cohorts, eq(cohorts.id, projectCohorts.cohortId))
      .where(and(eq(projectCohorts.projectId, projectId), eq(projectCohorts.cohortId, cohortId)));
    if (rows[0]) return rows[0];
    const imaging = await this.orm
      .select(imagingCohort)
      .from(imagingDatasets)
      .where(
        and(
          eq(imagingDatasets.projectId, projectId),
          eq(imagingDatasets.id, cohortId),
          inArray(imagingDatasets.status, ['modelling', 'ready']),
        ),
      );
    return imaging[0] ?? null;
  }

  /** The patient ids of a cohort (e.g. SYN-000123). */
  async cohortPatientIds(cohortId: string): Promise<string[]> {
    const rows = await this.orm
      .select({ patientId: cohortPatients.patientId })
      .from(cohortPatients)
      .where(eq(cohortPatients.cohortId, cohortId));
    return rows.map((row) => row.patientId);
  }

  /** Which of these device versions are on the project. */
  async versionsOnProject(projectId: string, versionIds: readonly string[]): Promise<Set<string>> {
    if (versionIds.length === 0) return new Set();
    const rows = await this.orm
      .select({ versionId: projectDeviceVersions.versionId })
      .from(projectDeviceVersions)
      .where(
        and(eq(projectDeviceVersions.projectId, projectId), inArray(projectDeviceVersions.versionId, [...versionIds])),
      );
    return new Set(rows.map((row) => row.versionId));
  }
}
