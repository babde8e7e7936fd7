import { noPermissionMessage, type MemberRole } from '@insilico/contracts';
import { decide, type Decision, type WorkspaceGrant } from './workspace.policy';

/**
 * Who may do what with one project of a workspace (spec §6, issue 5). Admins and members see every project of
 * the workspace and have full control of the projects whose team they are on; guests see and comment on only
 * the projects they were added to. Admins may also remove any comment of a project they can see.
 * Outsiders get 404 (workspace.policy), everybody else who may not gets 403 with the spec's message.
 * The table is recorded in docs/decisions/project-permissions.md.
 */
export type ProjectAction =
  /** See the project: overview card, view tabs, its cohorts, versions, rooms, analyses. */
  | 'project.read'
  /** Write comments and edit or delete one's own. */
  | 'project.comment'
  /** Remove anybody's comment. */
  | 'project.moderate'
  /** Change status, title, team, question, cohorts and device versions. */
  | 'project.manage'
  /** Create, rename, share, place devices in, screenshot and delete rooms; create and change analyses. */
  | 'project.work'
  /** Sign a design history entry or an evidence snapshot (issue 20, 21 CFR Part 11): the project's working team. */
  | 'project.sign';

/** Per action: the roles allowed on any project they can see, and the roles allowed only when on the team. */
export const projectPermissions: Readonly<
  Record<ProjectAction, { anyProject: readonly MemberRole[]; onTeam: readonly MemberRole[] }>
> = {
  'project.read': { anyProject: ['admin', 'member'], onTeam: ['admin', 'member', 'guest'] },
  'project.comment': { anyProject: [], onTeam: ['admin', 'member', 'guest'] },
  'project.moderate': { anyProject: ['admin'], onTeam: ['admin'] },
  'project.manage': { anyProject: [], onTeam: ['admin', 'member'] },
  'project.work': { anyProject: [], onTeam: ['admin', 'member'] },
  'project.sign': { anyProject: [], onTeam: ['admin', 'member'] },
};

/** The caller's standing towards one project: their workspace grant and whether they are on its team. */
export interface ProjectStanding {
  grant: WorkspaceGrant | null;
  onTeam: boolean;
}

export function decideProject(action: ProjectAction, standing: ProjectStanding): Decision {
  const membership = decide('workspace.view', standing.grant);
  if (!membership.allowed || !standing.grant) return membership;
  const { role } = standing.grant;
  const rule = projectPermissions[action];
  if (rule.anyProject.includes(role) || (standing.onTeam && rule.onTeam.includes(role))) return { allowed: true };
  return { allowed: false, code: 'forbidden', message: noPermissionMessage };
}

/** Whether the caller sees every project of the workspace (guests see only their own). */
export function seesAllProjects(grant: WorkspaceGrant): boolean {
  return projectPermissions['project.read'].anyProject.includes(grant.role);
}
