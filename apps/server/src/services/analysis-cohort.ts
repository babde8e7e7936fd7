import { imagingCohortNotReadyMessage, type CohortParameterTable } from '@insilico/contracts';
import type { AnalysisListRow, AnalysisRepository } from '../repositories/analysis.repository';
import type { CohortRepository } from '../repositories/cohort.repository';
import type { ImagingRepository } from '../repositories/imaging.repository';
import { parameterTableOf } from './cohort-parameter-table';
import { storedPatient } from './cohort-records';
import { ServiceError } from './errors';
import { imagingParameterTable } from './imaging-parameter-table';
import type { ProjectAccessService } from './project-access.service';

/** What reading an analysis with its cohort needs. */
export interface AnalysisCohortDeps extends AnalysisSubjectDeps {
  access: ProjectAccessService;
  analyses: AnalysisRepository;
}

/** Where the patients of an analysis' cohort are read: a virtual cohort's records or an imaging dataset's models. */
export interface AnalysisSubjectDeps {
  cohorts: Pick<CohortRepository, 'findById' | 'patients'>;
  imaging: Pick<ImagingRepository, 'find'>;
}

/** The cohort of an analysis as the report and the snapshot name it. */
export interface AnalysisSubject {
  id: string;
  name: string;
  /** A virtual cohort's population model; for imaging data, says there is none. */
  modelVersion: string;
  source: 'virtual' | 'imaging';
  /** The cohort's own parameter table (anatomy, or what was measured on delivered surfaces). */
  table: CohortParameterTable;
}

export const imagingModelVersion = 'none (own imaging data)';

/**
 * The patients of an analysis' cohort and their own parameter table, refused (409) while the cohort is not ready
 * and 404 when it is gone: a virtual cohort's stored patients, or the delivered patients of an imaging dataset.
 */
export async function analysisSubject(
  deps: AnalysisSubjectDeps,
  cohort: { id: string; source: 'virtual' | 'imaging' },
): Promise<AnalysisSubject> {
  if (cohort.source === 'imaging') {
    const dataset = await deps.imaging.find(cohort.id);
    if (!dataset) throw new ServiceError(404, 'not_found', 'No such patient cohort.');
    if (dataset.status !== 'ready' || !dataset.models)
      throw new ServiceError(409, 'cohort_not_ready', imagingCohortNotReadyMessage);
    return {
      id: dataset.id,
      name: dataset.name,
      modelVersion: imagingModelVersion,
      source: 'imaging',
      table: imagingParameterTable(dataset),
    };
  }
  const found = await deps.cohorts.findById(cohort.id);
  if (!found) throw new ServiceError(404, 'not_found', 'No such patient cohort.');
  if (found.status !== 'ready')
    throw new ServiceError(409, 'cohort_not_ready', 'The patients of this cohort are still being prepared.');
  const table = parameterTableOf(
    found.id,
    (await deps.cohorts.patients(found.id)).map((stored) => storedPatient(found, stored)),
  );
  return { id: found.id, name: found.name, modelVersion: found.modelVersion, source: 'virtual', table };
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
): Promise<{ row: AnalysisListRow; cohort: AnalysisSubject; table: CohortParameterTable }> {
  await deps.access.require('project.read', userId, deviceId, projectId);
  const row = await deps.analyses.find(projectId, analysisId);
  if (!row) throw new ServiceError(404, 'not_found', 'No such analysis in this project.');
  const cohort = await analysisSubject(deps, row.cohort);
  return { row, cohort, table: cohort.table };
}
