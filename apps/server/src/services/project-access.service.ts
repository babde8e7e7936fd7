import type { ProjectAction, ProjectStanding } from '../policies/project.policy';
import { grantOf, type WorkspaceGrant } from '../policies/workspace.policy';
import type { ProjectAccessRepository, ProjectRow } from '../repositories/project-access.repository';
import { ServiceError } from './errors';
import { authorize, authorizeProject } from './authorize';

export const projectNotFoundMessage = 'This project does not exist in this device workspace.';

/** A project the caller may act on, with their standing (services use it for the finer checks). */
export interface ProjectAccessGrant<P = ProjectRow> {
  project: P;
  standing: ProjectStanding & { grant: WorkspaceGrant };
}

/**
 * The one entry for every project-scoped service (projects, comments, versions, rooms, analyses): loads the
 * project of the workspace and the caller's standing, and refuses unless the project policy allows the action.
 */
export class ProjectAccessService {
  constructor(private readonly repository: ProjectAccessRepository) {}

  async require(
    action: ProjectAction,
    userId: string,
    deviceId: string,
    projectId: string,
  ): Promise<ProjectAccessGrant> {
    const row = await this.repository.standing(deviceId, projectId, userId);
    return this.decide(action, grantOf(row.membership), row.project, row.onTeam);
  }

  /**
   * The same decision from rows the caller read itself (a read that already has the caller's grant and reads the
   * project with its team anyway): `project` null when it does not exist in the workspace.
   */
  decide<P>(
    action: ProjectAction,
    grant: WorkspaceGrant | null,
    project: P | null,
    onTeam: boolean,
  ): ProjectAccessGrant<P> {
    // Outsiders learn nothing: the workspace answers 404 before the project is looked at.
    authorize('workspace.view', grant);
    if (!project) throw new ServiceError(404, 'project_not_found', projectNotFoundMessage);
    const standing: ProjectStanding = { grant, onTeam };
    authorizeProject(action, standing);
    return { project, standing };
  }
}
