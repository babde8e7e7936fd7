import {
  analysisConflictMessage,
  analysisSettingsSchema,
  imagingCohortNotReadyMessage,
  normalizeAnalysisSettings,
  reasonRequiredMessage,
  type Analysis,
  type AnalysisList,
  type AnalysisSettings,
  type AnalysisSummary,
  type CohortParameterTable,
} from '@insilico/contracts';
import { decideProject } from '../policies/project.policy';
import { randomUUID } from 'node:crypto';
import type {
  AnalysisChanges,
  AnalysisCohortRow,
  AnalysisListRow,
  AnalysisRepository,
} from '../repositories/analysis.repository';
import type { NewResultSnapshot } from '../repositories/result-snapshot.repository';
import { resultsOf } from './result-snapshots';
import type { AnalysisState } from './analysis-snapshot.service';
import { dropGoneTrialOutcomes } from './analysis-gone-outcomes';
import { isAnalysableParameter } from './cohort-parameter-table';
import { ServiceError } from './errors';
import type { ProjectAccessGrant, ProjectAccessService } from './project-access.service';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { projectEvent } from '../events/kinds';

/** A new analysis, already parsed by its contract schema. */
export interface NewAnalysisInput {
  cohortId: string;
  name: string;
  parameters: string[];
  settings: AnalysisSettings;
  excluded: string[];
  /** Required when `excluded` is not empty (issue 20). */
  reason?: string;
}

/** A change, parsed by its contract schema; `revision` is the one the caller's copy is based on. */
export interface AnalysisUpdateInput {
  revision: number | undefined;
  name?: string;
  parameters?: string[];
  settings?: AnalysisSettings;
  excluded?: string[];
  /** Required when the set of excluded patients changes (issue 20). */
  reason?: string;
}

const reasonRequired = () => new ServiceError(400, 'reason_required', reasonRequiredMessage);

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}

const notFound = () => new ServiceError(404, 'not_found', 'No such analysis in this project.');

/**
 * Population analyses of a project (issue 6 item 5): the cohort (one of the project's, ready), the parameters,
 * the settings and the excluded patients, with a revision so two tabs never overwrite each other silently.
 * `project.read` reads, `project.work` creates and changes (project.policy.ts).
 */
export class AnalysisService {
  constructor(
    private readonly repository: AnalysisRepository,
    private readonly access: ProjectAccessService,
    /** Analyses and their domain events commit together (issue 20). */
    private readonly unitOfWork: UnitOfWork,
    /** The outcome parameters of the project's trials on a cohort (`trial.<id>.<outcome>`, issue 17). */
    private readonly trialOutcomes: (projectId: string, cohortId: string) => Promise<ReadonlySet<string>> = () =>
      Promise.resolve(new Set()),
    /** The measurements of the workspace's ready orders on a cohort (`measurement.<order>.<index>`, issue 23). */
    private readonly measurements: (deviceId: string, cohortId: string) => Promise<ReadonlySet<string>> = () =>
      Promise.resolve(new Set()),
    /**
     * The analysis' results as they are now (issue 20 item 7: `AnalysisSnapshotService.take`), kept in the
     * transaction of the event by which it enters the design history; none without it.
     */
    private readonly snapshot:
      | ((userId: string, deviceId: string, projectId: string, state: AnalysisState) => Promise<NewResultSnapshot>)
      | null = null,
    /** The parameter table of a ready imaging cohort's delivered patients (issue 19), by dataset. */
    private readonly imagingTable: (datasetId: string) => Promise<CohortParameterTable | null> = () =>
      Promise.resolve(null),
  ) {}

  private async takeSnapshot(userId: string, deviceId: string, projectId: string, state: AnalysisState) {
    return this.snapshot ? this.snapshot(userId, deviceId, projectId, state) : null;
  }

  async list(userId: string, deviceId: string, projectId: string): Promise<AnalysisList> {
    const grant = await this.access.require('project.read', userId, deviceId, projectId);
    const rows = await this.repository.list(projectId);
    return { items: rows.map(toSummary), canEdit: mayWork(grant) };
  }

  async get(userId: string, deviceId: string, projectId: string, analysisId: string): Promise<Analysis> {
    const grant = await this.access.require('project.read', userId, deviceId, projectId);
    const row = await this.repository.find(projectId, analysisId);
    if (!row) throw notFound();
    return toAnalysis(row, mayWork(grant));
  }

  async create(userId: string, deviceId: string, projectId: string, input: NewAnalysisInput): Promise<Analysis> {
    await this.access.require('project.work', userId, deviceId, projectId);
    const cohort = await this.projectCohort(projectId, input.cohortId);
    const settings = normalizeAnalysisSettings(input.settings);
    await this.check(deviceId, projectId, cohort, input.parameters, settings, input.excluded);
    const excluded = unique(input.excluded);
    // Patients left out from the start change what the analysis says: the reason is kept with it.
    if (excluded.length > 0 && !input.reason) throw reasonRequired();
    const analysisId = randomUUID();
    const snapshot = await this.takeSnapshot(userId, deviceId, projectId, {
      id: analysisId,
      revision: 1,
      cohortId: cohort.id,
      source: cohort.source,
      name: input.name,
      parameters: input.parameters,
      settings,
      excluded,
    });
    const id = await this.unitOfWork.run(async (tx) => {
      const inserted = await tx.analyses.insert({
        id: analysisId,
        deviceId,
        projectId,
        ...(cohort.source === 'imaging' ? { cohortId: null, imagingDatasetId: cohort.id } : { cohortId: cohort.id }),
        name: input.name,
        parameters: input.parameters,
        settings,
        excluded,
        createdBy: userId,
      });
      if (snapshot) await tx.resultSnapshots.insert(snapshot);
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'analysis.created', { type: 'analysis', id: inserted }),
        after: {
          name: input.name,
          cohortId: cohort.id,
          parameters: input.parameters,
          settings,
          excluded,
          ...resultsOf(snapshot),
        },
        reason: excluded.length > 0 ? input.reason : null,
      });
      return inserted;
    });
    return this.get(userId, deviceId, projectId, id);
  }

  async update(
    userId: string,
    deviceId: string,
    projectId: string,
    analysisId: string,
    input: AnalysisUpdateInput,
  ): Promise<Analysis> {
    await this.access.require('project.work', userId, deviceId, projectId);
    const row = await this.repository.find(projectId, analysisId);
    if (!row) throw notFound();
    if (input.revision === undefined)
      throw new ServiceError(
        428,
        'revision_required',
        'Say which revision of the analysis the change is based on (If-Match header or revision field).',
      );
    if (input.revision !== row.analysis.revision) throw conflict(row.analysis.revision);
    const current = toAnalysis(row, true);
    // Outcomes of a trial deleted since the last save are taken out, not refused (issue 17); the answer says which.
    const { parameters, settings, dropped } = dropGoneTrialOutcomes(
      current,
      {
        parameters: input.parameters ?? current.parameters,
        settings: normalizeAnalysisSettings(input.settings ?? current.settings),
      },
      await this.trialOutcomes(projectId, row.cohort.id),
    );
    if (parameters.length === 0)
      throw new ServiceError(
        422,
        'no_parameters_left',
        'Every parameter of this analysis was an outcome of a deleted trial. Choose at least one parameter.',
        { dropped },
      );
    const excluded = unique(input.excluded ?? current.excluded);
    // Excluding or including patients changes what the analysis says: the reason is kept with the change.
    const exclusionChanged = !sameSet(excluded, current.excluded);
    await this.check(deviceId, projectId, row.cohort, parameters, settings, excluded);
    if (exclusionChanged && !input.reason) throw reasonRequired();
    const changes: AnalysisChanges = { parameters, settings, excluded };
    if (input.name !== undefined) changes.name = input.name;
    const revision = input.revision;
    const snapshot = await this.takeSnapshot(userId, deviceId, projectId, {
      id: analysisId,
      revision: revision + 1,
      cohortId: row.cohort.id,
      source: row.cohort.source,
      name: changes.name ?? current.name,
      parameters,
      settings,
      excluded,
    });
    const saved = await this.unitOfWork.run(async (tx) => {
      if (!(await tx.analyses.update(projectId, analysisId, revision, changes))) return false;
      if (snapshot) await tx.resultSnapshots.insert(snapshot);
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'analysis.updated', { type: 'analysis', id: analysisId }),
        before: {
          name: current.name,
          parameters: current.parameters,
          settings: current.settings,
          excluded: current.excluded,
        },
        after: {
          name: changes.name ?? current.name,
          parameters,
          settings,
          excluded,
          ...(dropped.length > 0 ? { dropped } : {}),
          ...resultsOf(snapshot),
        },
        reason: exclusionChanged ? input.reason : null,
      });
      return true;
    });
    if (!saved) {
      // Someone else wrote between our read and our write.
      const now = await this.repository.find(projectId, analysisId);
      if (!now) throw notFound();
      throw conflict(now.analysis.revision);
    }
    const answer = await this.get(userId, deviceId, projectId, analysisId);
    return dropped.length > 0 ? { ...answer, dropped } : answer;
  }

  private async projectCohort(projectId: string, cohortId: string): Promise<AnalysisCohortRow> {
    const cohort = await this.repository.projectCohort(projectId, cohortId);
    if (!cohort)
      throw new ServiceError(
        422,
        'cohort_not_in_project',
        'This patient cohort is not part of the project. Choose one of the project’s cohorts.',
      );
    if (cohort.status !== 'ready' && cohort.source === 'imaging')
      throw new ServiceError(409, 'cohort_not_ready', imagingCohortNotReadyMessage);
    if (cohort.status !== 'ready')
      throw new ServiceError(
        409,
        'cohort_not_ready',
        cohort.status === 'failed'
          ? 'This cohort could not be prepared, so it has no patients to analyse.'
          : 'The patients of this cohort are still being prepared. You get a notification when they are ready.',
      );
    return cohort;
  }

  /** The checks the contract cannot make: known parameters, patients of the cohort, versions of the project. */
  private async check(
    deviceId: string,
    projectId: string,
    cohort: AnalysisCohortRow,
    parameters: readonly string[],
    settings: AnalysisSettings,
    excluded: readonly string[],
  ): Promise<void> {
    const rangeKeys = settings.deviceFits.flatMap((fit) =>
      fit.sizes.flatMap((size) => size.ranges.map((range) => range.parameter)),
    );
    const outcomes = await this.trialOutcomes(projectId, cohort.id);
    const measured = await this.measurements(deviceId, cohort.id);
    // An imaging cohort's parameters are what was measured on its delivered surfaces, not the virtual catalogue.
    const imaging = cohort.source === 'imaging' ? await this.imagingTable(cohort.id) : null;
    if (cohort.source === 'imaging' && !imaging)
      throw new ServiceError(409, 'cohort_not_ready', imagingCohortNotReadyMessage);
    const own = imaging ? new Set(imaging.parameters.map((p) => p.key)) : null;
    const unknown = unique([...parameters, ...rangeKeys]).filter(
      (key) => !(own ? own.has(key) : isAnalysableParameter(key)) && !outcomes.has(key) && !measured.has(key),
    );
    if (unknown.length > 0)
      throw new ServiceError(422, 'unknown_parameter', `These parameters are not known: ${unknown.join(', ')}.`, {
        parameters: unknown,
      });
    if (settings.sizingParameter !== null && !parameters.includes(settings.sizingParameter))
      throw new ServiceError(
        422,
        'invalid_sizing_parameter',
        'The sizing proposal must use one of the analysed parameters.',
      );
    if (excluded.length > 0) {
      const patients = new Set(imaging ? imaging.patients : await this.repository.cohortPatientIds(cohort.id));
      const strangers = excluded.filter((id) => !patients.has(id));
      if (strangers.length > 0)
        throw new ServiceError(
          422,
          'unknown_patient',
          `These patients are not in the cohort ${cohort.name}: ${strangers.slice(0, 10).join(', ')}${strangers.length > 10 ? ' …' : ''}.`,
          { patients: strangers },
        );
    }
    const versionIds = unique(
      settings.deviceFits.map((fit) => fit.versionId).filter((id): id is string => id !== null),
    );
    const onProject = await this.repository.versionsOnProject(projectId, versionIds);
    if (versionIds.some((id) => !onProject.has(id)))
      throw new ServiceError(
        422,
        'version_not_in_project',
        'Sizing windows can only be given for device versions of this project.',
      );
  }
}

function mayWork(grant: ProjectAccessGrant): boolean {
  return decideProject('project.work', grant.standing).allowed;
}

function conflict(revision: number): ServiceError {
  return new ServiceError(409, 'revision_conflict', analysisConflictMessage, { revision });
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function toSummary(row: AnalysisListRow): AnalysisSummary {
  const { analysis } = row;
  return {
    id: analysis.id,
    projectId: analysis.projectId,
    name: analysis.name,
    cohort: row.cohort,
    parameters: analysis.parameters,
    excludedCount: analysis.excluded.length,
    revision: analysis.revision,
    createdBy: analysis.createdBy ? { id: analysis.createdBy, fullName: row.creatorName ?? '' } : null,
    createdAt: analysis.createdAt.toISOString(),
    updatedAt: analysis.updatedAt.toISOString(),
  };
}

function toAnalysis(row: AnalysisListRow, canEdit: boolean): Analysis {
  return {
    ...toSummary(row),
    // Stored settings were checked on the way in; parsing fills any field added since with its default.
    settings: normalizeAnalysisSettings(analysisSettingsSchema.parse(row.analysis.settings)),
    excluded: row.analysis.excluded,
    canEdit,
  };
}
