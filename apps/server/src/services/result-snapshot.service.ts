import { resultSnapshotSchema, type ResultSnapshot } from '@insilico/contracts';
import type { ResultSnapshotRepository, ResultSnapshotRow } from '../repositories/result-snapshot.repository';
import { ServiceError } from './errors';
import type { MeasurementService } from './measurement.service';
import type { ProjectAccessService } from './project-access.service';

/** A kept snapshot as the API answers it. */
export function presentResultSnapshot(row: ResultSnapshotRow): ResultSnapshot {
  return resultSnapshotSchema.parse({
    id: row.id,
    objectType: row.objectType,
    objectId: row.objectId,
    projectId: row.projectId,
    revision: row.revision,
    codeVersion: row.codeVersion,
    takenAt: row.takenAt.toISOString(),
    contentHash: row.contentHash,
    content: row.content,
  });
}

/**
 * Reading kept results (issue 20 item 7) with the permission of their object: a project's evidence (analysis,
 * simulation, trial, shape model) by `project.read` on the project, a measurement order's by the workspace's
 * `measurement.read` (and its plan). The object may be gone since: its project or workspace still decides.
 */
export class ResultSnapshotService {
  constructor(
    private readonly deps: {
      repository: Pick<ResultSnapshotRepository, 'find' | 'measurementsOnProjects'>;
      projects: Pick<ProjectAccessService, 'require'>;
      measurements: Pick<MeasurementService, 'allow'>;
    },
  ) {}

  async get(userId: string, deviceId: string, snapshotId: string): Promise<ResultSnapshot> {
    const row = await this.deps.repository.find(deviceId, snapshotId);
    if (!row) throw new ServiceError(404, 'not_found', 'No such results snapshot in this workspace.');
    if (row.projectId) await this.deps.projects.require('project.read', userId, deviceId, row.projectId);
    else await this.deps.measurements.allow('measurement.read', userId, deviceId);
    return presentResultSnapshot(row);
  }

  /**
   * The measurement snapshots a design history file of these projects holds (on their cohorts); none for someone who
   * may not read the workspace's measurements.
   */
  async measurementsFor(userId: string, deviceId: string, projectIds: readonly string[]): Promise<ResultSnapshotRow[]> {
    try {
      await this.deps.measurements.allow('measurement.read', userId, deviceId);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 403) return [];
      throw error;
    }
    return this.deps.repository.measurementsOnProjects(deviceId, projectIds);
  }
}
