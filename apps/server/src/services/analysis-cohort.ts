import type { CohortParameterTable } from '@insilico/contracts';
import type { AnalysisListRow, AnalysisRepository } from '../repositories/analysis.repository';
import type { CohortRepository, CohortRow } from '../repositories/cohort.repository';
import { parameterTableOf } from './cohort-parameter-table';
import { storedPatient } from './cohort-records';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';

/** What reading an analysis with its cohort needs. */
export interface AnalysisCohortDeps {
  access: ProjectAccessService;
  analyses: AnalysisRepository;
  cohorts: CohortRepository;
}

/**
 * An analysis the user may read (`project.read`) with its cohort, which must be ready, and the cohort's own
 * parameter table (anatomy; the trial outcomes and measurements are the caller's to add): what the comparison with
 * a reference population and the analysis report start from.
 */
export async function readableAnalysisCohort(
  deps: AnalysisCohortDeps,
  userId: string,
  deviceId: string,
  projectId: string,
  analysisId: string,
): Promise<{ row: AnalysisListRow; cohort: CohortRow; table: CohortParameterTable }> {
  await deps.access.require('project.read', userId, deviceId, projectId);
  const row = await deps.analyses.find(projectId, analysisId);
  if (!row) throw new ServiceError(404, 'not_found', 'No such analysis in this project.');
  const cohort = await deps.cohorts.findById(row.cohort.id);
  if (!cohort || cohort.status !== 'ready')
    throw new ServiceError(409, 'cohort_not_ready', 'The patients of this cohort are still being prepared.');
  const table = parameterTableOf(
    cohort.id,
    (await deps.cohorts.patients(cohort.id)).map((stored) => storedPatient(cohort, stored)),
  );
  return { row, cohort, table };
}
