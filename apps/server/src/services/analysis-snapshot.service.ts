import { randomUUID } from 'node:crypto';
import { analysisSnapshotTask } from '../cpu/analysis-snapshot.task';
import type { CpuRunner } from '../cpu/pool';
import type { NewResultSnapshot } from '../repositories/result-snapshot.repository';
import type { AnalysisReportService } from './analysis-report.service';
import { analysisSubject, type AnalysisSubjectDeps } from './analysis-cohort';
import { ServiceError } from './errors';

/** An analysis as it is about to be saved: the state whose results are snapshotted. */
export interface AnalysisState {
  id: string;
  /** The revision the save gives it. */
  revision: number;
  cohortId: string;
  /** Whether `cohortId` is a virtual cohort or an imaging dataset (its delivered patients). */
  source: 'virtual' | 'imaging';
  name: string;
  parameters: readonly string[];
  settings: unknown;
  excluded: string[];
}

/**
 * Results that stay (issue 20 item 7): when an analysis enters the design history (created or changed), its results
 * are computed on the server in the CPU pool — the same run as the analysis report — and kept with their SHA-256 and
 * the code version, so that a later change of the cohort, the trials, the measurements or the code cannot change what
 * was signed. The caller writes the snapshot in the transaction of the event that names it.
 */
export class AnalysisSnapshotService {
  constructor(
    private readonly deps: AnalysisSubjectDeps & {
      reports: Pick<AnalysisReportService, 'prepare'>;
      cpu: CpuRunner;
      codeVersion: string;
    },
  ) {}

  async take(userId: string, deviceId: string, projectId: string, state: AnalysisState): Promise<NewResultSnapshot> {
    const cohort = await analysisSubject(this.deps, { id: state.cohortId, source: state.source });
    const own = cohort.table;
    let prepared = null;
    let refusal: string | null = null;
    try {
      prepared = await this.deps.reports.prepare(userId, deviceId, projectId, cohort.id, own, {
        ...state,
        updatedAt: '',
      });
    } catch (error) {
      // What cannot be analysed (too few patients, a parameter gone) is kept with the reason as its result.
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      refusal = error.message;
    }
    const { content, contentHash } = await this.deps.cpu.run(analysisSnapshotTask, {
      codeVersion: this.deps.codeVersion,
      analysisId: state.id,
      revision: state.revision,
      cohort: { id: cohort.id, name: cohort.name, modelVersion: cohort.modelVersion },
      saved: { name: state.name, parameters: state.parameters, settings: state.settings, excluded: state.excluded },
      prepared,
      refusal,
    });
    return {
      id: randomUUID(),
      deviceId,
      projectId,
      objectType: 'analysis',
      objectId: state.id,
      revision: state.revision,
      codeVersion: this.deps.codeVersion,
      content,
      contentHash,
    };
  }
}
