import type { ProjectAction, ProjectStanding } from '../policies/project.policy';
import { grantOf, type WorkspaceGrant } from '../policies/workspace.policy';
import type { ProjectAccessRepository, ProjectRow } from '../repositories/project-access.repository';
import { ServiceError } from './errors';
import { authorize, authorizeProject } from './authorize';

export const projectNotFoundMessage = 'This project does not exist in this device workspace.';

/** A project the caller may act on, with their standing (services use it for the finer checks). */
export interface ProjectAccessGrant {
  project: ProjectRow;
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
    const grant = grantOf(row.membership);
    // Outsiders learn nothing: the workspace answers 404 before the project is looked at.
    authorize('workspace.view', grant);
    if (!row.project) throw new ServiceError(404, 'project_not_found', projectNotFoundMessage);
    const standing: ProjectStanding = { grant, onTeam: row.onTeam };
    authorizeProject(action, standing);
    return { project: row.project, standing };
  }
}
